/*
 * A counting allocator, loaded with LD_PRELOAD: it counts every call that asks the heap for
 * memory (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign, valloc, pvalloc),
 * forwards it to glibc's own functions (__libc_malloc & co., so no dlsym bootstrapping), and
 * at exit writes "allocations N" to the file named by ALLOC_COUNT_FILE.
 *
 * `make alloc-count` runs the release server under it twice per workload, a short and a long
 * run, and divides the difference in allocations by the difference in frames or pointer
 * messages: startup, connecting and shutdown cancel out. Chosen over heaptrack and valgrind's
 * DHAT for the count (both are installed, and heaptrack is the tool for finding *where*: see
 * docs/PERFORMANCE.md, "Allocations") because it costs one atomic add per allocation: the
 * server runs at its own speed, frames stay on time, and the whole target takes about a minute.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);
extern void *__libc_pvalloc(size_t);

static atomic_ullong allocations;

static inline void counted(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

void *malloc(size_t size) {
    counted();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    counted();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    counted();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    counted();
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *out = pointer;
    return 0;
}

void *valloc(size_t size) {
    counted();
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    counted();
    return __libc_pvalloc(size);
}

/* At exit (main returned or exit() was called): the total, for the driver to read. */
__attribute__((destructor)) static void report(void) {
    const char *path = getenv("ALLOC_COUNT_FILE");
    if (path == NULL || *path == '\0') return;
    char line[64];
    int length = snprintf(line, sizeof line, "allocations %llu\n",
                          (unsigned long long)atomic_load(&allocations));
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    ssize_t written = write(fd, line, (size_t)length);
    (void)written;
    close(fd);
}
