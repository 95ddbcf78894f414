/*
 * ws-floor: the floor to compare the sandbox with — the least a libwebsockets server can do.
 *
 *   ws-floor echo   [--port N]              echoes every text message (the latency floor)
 *   ws-floor stream [--port N] [--fps F] [--bytes B]
 *                                           sends every connection a B-byte text frame F times a
 *                                           second from one shared timer (the throughput floor)
 *
 * Written for Transition Sandbox's `sandbox latency --compare` and `sandbox bench --compare`:
 * the same client measures this and the sandbox in one run. One service thread, loopback only,
 * any subprotocol (the protocol is marked "default"). Prints "ws-floor listening on PORT" when
 * ready; SIGINT/SIGTERM stop it.
 */
#include <libwebsockets.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum mode { ECHO, STREAM };

/* echo: one received message waiting to go back (LWS_PRE headroom first) */
struct message {
    struct message *next;
    size_t len;
    unsigned char data[];
};

struct connection {
    struct connection *next;  /* the stream list */
    struct lws *wsi;
    struct message *head, *tail;  /* echo: every message goes back, in order */
    unsigned char *partial;   /* echo: a message still arriving in fragments */
    size_t partial_len, partial_cap;
    int frame_due;            /* stream: latest state wins, never a queue */
};

static enum mode mode = ECHO;
static int fps = 60;
static size_t frame_bytes = 1200;
static unsigned char *frame;  /* LWS_PRE + frame_bytes */
static struct connection *streaming;
static lws_sorted_usec_list_t tick_sul;
static struct lws_context *context;
static lws_usec_t tick_start;
static long tick_index;
static volatile int interrupted;

static void tick(lws_sorted_usec_list_t *sul) {
    (void)sul;
    struct connection *c;
    lws_usec_t now = lws_now_usecs(), next;
    for (c = streaming; c; c = c->next) {
        c->frame_due = 1;
        lws_callback_on_writable(c->wsi);
    }
    /* absolute targets, no drift; skip missed ticks */
    do {
        tick_index++;
        next = tick_start + (lws_usec_t)((double)tick_index * 1e6 / fps);
    } while (next <= now);
    lws_sul_schedule(context, 0, &tick_sul, tick, next - now);
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    struct connection *c = (struct connection *)user, **p;
    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED:
        memset(c, 0, sizeof *c);
        c->wsi = wsi;
        if (mode == STREAM) {
            c->next = streaming;
            streaming = c;
        }
        break;
    case LWS_CALLBACK_CLOSED:
        for (p = &streaming; *p; p = &(*p)->next)
            if (*p == c) { *p = c->next; break; }
        while (c->head) {
            struct message *m = c->head;
            c->head = m->next;
            free(m);
        }
        free(c->partial);
        break;
    case LWS_CALLBACK_RECEIVE:
        if (mode != ECHO) break;
        if (lws_is_first_fragment(wsi)) c->partial_len = 0;
        if (c->partial_len + len > c->partial_cap) {
            c->partial_cap = (c->partial_len + len) * 2;
            c->partial = realloc(c->partial, c->partial_cap);
            if (!c->partial) return -1;
        }
        memcpy(c->partial + c->partial_len, in, len);
        c->partial_len += len;
        if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi)) {
            struct message *m = malloc(sizeof *m + LWS_PRE + c->partial_len);
            if (!m) return -1;
            m->next = NULL;
            m->len = c->partial_len;
            memcpy(m->data + LWS_PRE, c->partial, c->partial_len);
            if (c->tail) c->tail->next = m; else c->head = m;
            c->tail = m;
            lws_callback_on_writable(wsi);
        }
        break;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        if (mode == ECHO) {
            struct message *m = c->head;
            if (!m) break;
            c->head = m->next;
            if (!c->head) c->tail = NULL;
            if (lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT) < (int)m->len) { free(m); return -1; }
            free(m);
            if (c->head) lws_callback_on_writable(wsi);
        } else if (c->frame_due) {
            c->frame_due = 0;
            if (lws_write(wsi, frame + LWS_PRE, frame_bytes, LWS_WRITE_TEXT) < (int)frame_bytes) return -1;
        }
        break;
    default:
        break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static void stop(int sig) {
    (void)sig;
    interrupted = 1;
    lws_cancel_service(context);
}

int main(int argc, char **argv) {
    int port = 7681, i;
    static struct lws_protocols protocols[] = {
        {"http", lws_callback_http_dummy, 0, 0, 0, NULL, 0},
        {"floor", callback, sizeof(struct connection), 0, 0, NULL, 0},
        {NULL, NULL, 0, 0, 0, NULL, 0},
    };
    static const struct lws_protocol_vhost_options is_default = {NULL, NULL, "default", "1"};
    static const struct lws_protocol_vhost_options pvo = {NULL, &is_default, "floor", ""};
    struct lws_context_creation_info info;

    if (argc < 2 || (strcmp(argv[1], "echo") && strcmp(argv[1], "stream"))) {
        fprintf(stderr, "usage: ws-floor echo|stream [--port N] [--fps F] [--bytes B]\n");
        return 64;
    }
    mode = strcmp(argv[1], "echo") ? STREAM : ECHO;
    /* A parent may have started this with signals blocked (`sandbox bench` blocks SIGINT,
     * SIGTERM and SIGHUP, and the mask is inherited): unblock them, so that its SIGTERM stops this. */
    sigset_t signals;
    sigemptyset(&signals);
    sigprocmask(SIG_SETMASK, &signals, NULL);
    for (i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--port")) port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--fps")) fps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--bytes")) frame_bytes = (size_t)atol(argv[i + 1]);
        else { fprintf(stderr, "unknown option %s\n", argv[i]); return 64; }
    }
    /* A frame is at least its 23-byte prefix and 2-byte suffix. */
    if (fps < 1 || fps > 1000 || frame_bytes < 25 || frame_bytes > 65536) {
        fprintf(stderr, "--fps must be 1…1000 and --bytes 25…65536\n");
        return 64;
    }
    frame = malloc(LWS_PRE + frame_bytes);
    memset(frame + LWS_PRE, 'x', frame_bytes);
    memcpy(frame + LWS_PRE, "{\"type\":\"frame\",\"pad\":\"", 23);
    memcpy(frame + LWS_PRE + frame_bytes - 2, "\"}", 2);

    lws_set_log_level(LLL_ERR | LLL_WARN, NULL);
    memset(&info, 0, sizeof info);
    info.port = port;
    info.iface = "127.0.0.1";
    info.protocols = protocols;
    info.pvo = &pvo;
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6;
    context = lws_create_context(&info);
    if (!context) { fprintf(stderr, "cannot listen on 127.0.0.1:%d\n", port); return 1; }
    signal(SIGINT, stop);
    signal(SIGTERM, stop);
    printf("ws-floor listening on %d\n", lws_get_vhost_listen_port(lws_get_vhost_by_name(context, "default")));
    fflush(stdout);
    if (mode == STREAM) {
        tick_start = lws_now_usecs();
        lws_sul_schedule(context, 0, &tick_sul, tick, (lws_usec_t)(1e6 / fps));
    }
    while (!interrupted && lws_service(context, 0) >= 0)
        ;
    lws_context_destroy(context);
    free(frame);
    return 0;
}
