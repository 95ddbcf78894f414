// Timers for the service loop: lws sorted-usec timers and timerfds adopted as raw files (shim.h includes this).
#ifndef CLWS_TIMERS_H
#define CLWS_TIMERS_H

#include <libwebsockets.h>
#include <sys/timerfd.h>
#include <string.h>
#include <unistd.h>

/// A timer: the sul first, so the callback's sul pointer is the timer pointer.
typedef struct clws_timer {
    lws_sorted_usec_list_t sul;
    void *owner;
} clws_timer;

static inline clws_timer *clws_timer_create(void *owner) {
    clws_timer *timer = calloc(1, sizeof(clws_timer));
    if (timer) timer->owner = owner;
    return timer;
}

static inline void *clws_timer_owner(lws_sorted_usec_list_t *sul) { return ((clws_timer *)sul)->owner; }

static inline void clws_timer_schedule(struct lws_context *context, clws_timer *timer, sul_cb_t callback,
                                       long long delay_us) {
    lws_sul_schedule(context, 0, &timer->sul, callback, delay_us < 1 ? 1 : delay_us);
}

static inline void clws_timer_cancel(struct lws_context *context, clws_timer *timer) {
    lws_sul_schedule(context, 0, &timer->sul, NULL, LWS_SET_TIMER_USEC_CANCEL);
}

/// A timerfd (CLOCK_MONOTONIC, non-blocking) adopted into the context's loop as a raw file on
/// the "http" protocol, with `owner` as the wsi's opaque user data: the loop's poll wakes when
/// it expires (LWS_CALLBACK_RAW_RX_FILE), to the microsecond. lws owns the descriptor from
/// then on (it closes it with the wsi: LWS_CALLBACK_RAW_CLOSE_FILE). NULL if either fails.
static inline struct lws *clws_timerfd_adopt(struct lws_context *context, void *owner, int *fd_out) {
    struct lws_vhost *vhost = lws_get_vhost_by_name(context, "default");
    if (!vhost) return NULL;
    int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (fd < 0) return NULL;
    lws_adopt_desc_t info;
    memset(&info, 0, sizeof info);
    info.vh = vhost;
    info.type = LWS_ADOPT_RAW_FILE_DESC;
    info.fd.filefd = fd;
    info.vh_prot_name = "http";
    info.opaque = owner;
    struct lws *wsi = lws_adopt_descriptor_vhost_via_info(&info);
    if (!wsi) {
        close(fd);  // lws closes only sockets it failed to adopt
        return NULL;
    }
    *fd_out = fd;
    return wsi;
}

/// Arms the timerfd to expire once, `delay_us` from now (at least 1 µs); 0 or less disarms it.
static inline int clws_timerfd_arm(int fd, long long delay_us, int disarm) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    if (!disarm) {
        if (delay_us < 1) delay_us = 1;
        spec.it_value.tv_sec = delay_us / 1000000;
        spec.it_value.tv_nsec = (delay_us % 1000000) * 1000;
    }
    return timerfd_settime(fd, 0, &spec, NULL);
}

/// Reads the expiry count, so that poll stops reporting it. Returns it (0: nothing expired).
static inline unsigned long long clws_timerfd_drain(int fd) {
    unsigned long long expirations = 0;
    return read(fd, &expirations, sizeof expirations) == (ssize_t)sizeof expirations ? expirations : 0;
}

/// Closes an adopted timerfd's wsi from the loop's next turn and forgets its owner (the owner is
/// going away; a callback in between finds no owner).
static inline void clws_timerfd_release(struct lws *wsi) {
    lws_set_opaque_user_data(wsi, NULL);
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

#endif
