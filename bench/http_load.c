/* A closed-loop HTTP load generator built like bench/ldap_load.c (one thread a blocking
 * connection, the same clock, the same percentiles), so the gateway and slapd can be timed
 * by the same kind of client: wrk (one epoll loop for every connection, Lua per request)
 * is the HTTP bench's generator of record, and its tail at one connection differs from a
 * blocking thread's on the same server (docs/performance.md, "Gateway").
 *
 *   http_load HOST PORT SECONDS CONNECTIONS PATHS_FILE
 *
 * Each thread connects (keep-alive) before the clock starts, then sends GET for the file's
 * paths in turn (each thread from its own offset) until SECONDS have passed; a reply is
 * read to the end of its Content-Length body. Prints one line of key=value figures:
 * requests, seconds, rps, p50_us, p99_us, missed (a status other than 2xx), errors.
 * Built by bench/gateway_bench.py: cc -O2 -o http_load http_load.c -lpthread
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char *host;
static int port;
static double seconds;
static char **requests;
static size_t *lengths;
static long count;
static pthread_barrier_t ready, go; /* all connected; the clock started */
static double started;

typedef struct {
    long index, done, missed, errors, capacity;
    unsigned *latencies; /* microseconds */
} worker_t;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int connect_to(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, host, &address.sin_addr);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        fprintf(stderr, "http_load: cannot connect to %s:%d\n", host, port);
        exit(2);
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* One reply read whole: its status, or -1 when the connection failed or the reply is not HTTP. */
static int read_reply(int fd, char *buffer, size_t size) {
    size_t have = 0;
    char *end = NULL;
    while (!end) {
        if (have == size - 1)
            return -1;
        ssize_t n = recv(fd, buffer + have, size - 1 - have, 0);
        if (n <= 0)
            return -1;
        have += n;
        buffer[have] = 0;
        end = strstr(buffer, "\r\n\r\n");
    }
    int status = 0;
    if (sscanf(buffer, "HTTP/1.%*d %d", &status) != 1)
        return -1;
    long body = 0;
    for (char *line = strstr(buffer, "\r\n"); line && line < end; line = strstr(line + 2, "\r\n"))
        if (strncasecmp(line + 2, "content-length:", 15) == 0)
            body = atol(line + 17);
    long left = body - (long)(have - (end + 4 - buffer));
    while (left > 0) {
        ssize_t n = recv(fd, buffer, left < (long)size ? (size_t)left : size, 0);
        if (n <= 0)
            return -1;
        left -= n;
    }
    return status;
}

static void *run(void *arg) {
    worker_t *w = arg;
    char buffer[65536];
    int fd = connect_to();
    pthread_barrier_wait(&ready);
    pthread_barrier_wait(&go);
    long at = w->index * (count / 64 + 1);
    while (1) {
        double t0 = now();
        if (t0 - started >= seconds)
            break;
        long i = at++ % count;
        int status = send(fd, requests[i], lengths[i], 0) == (ssize_t)lengths[i] ? read_reply(fd, buffer, sizeof buffer) : -1;
        double t1 = now();
        if (status < 0) {
            w->errors++;
            close(fd);
            fd = connect_to();
            continue;
        }
        if (status < 200 || status > 299)
            w->missed++;
        if (w->done == w->capacity) {
            w->capacity = w->capacity ? w->capacity * 2 : 65536;
            w->latencies = realloc(w->latencies, w->capacity * sizeof(unsigned));
        }
        w->latencies[w->done++] = (unsigned)((t1 - t0) * 1e6);
    }
    close(fd);
    return NULL;
}

static int by_value(const void *a, const void *b) {
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: http_load HOST PORT SECONDS CONNECTIONS PATHS_FILE\n");
        return 2;
    }
    host = argv[1];
    port = atoi(argv[2]);
    seconds = atof(argv[3]);
    int connections = atoi(argv[4]);
    FILE *in = fopen(argv[5], "r");
    if (!in) {
        perror(argv[5]);
        return 2;
    }
    char line[2048];
    long capacity = 1024;
    requests = malloc(capacity * sizeof(char *));
    lengths = malloc(capacity * sizeof(size_t));
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!*line)
            continue;
        if (count == capacity) {
            requests = realloc(requests, (capacity *= 2) * sizeof(char *));
            lengths = realloc(lengths, capacity * sizeof(size_t));
        }
        /* as wrk.format writes a GET: the request line, Host, the blank line */
        size_t size = strlen(line) + strlen(host) + 64;
        requests[count] = malloc(size);
        lengths[count] = snprintf(requests[count], size, "GET %s HTTP/1.1\r\nHost: %s:%d\r\n\r\n", line, host, port);
        count++;
    }
    fclose(in);
    if (!count) {
        fprintf(stderr, "http_load: no paths in %s\n", argv[5]);
        return 2;
    }
    pthread_t *threads = calloc(connections, sizeof(pthread_t));
    worker_t *workers = calloc(connections, sizeof(worker_t));
    pthread_barrier_init(&ready, NULL, connections + 1);
    pthread_barrier_init(&go, NULL, connections + 1);
    for (int i = 0; i < connections; i++) {
        workers[i].index = i;
        pthread_create(&threads[i], NULL, run, &workers[i]);
    }
    pthread_barrier_wait(&ready);
    started = now();
    pthread_barrier_wait(&go);
    long total = 0, missed = 0, errors = 0;
    for (int i = 0; i < connections; i++) {
        pthread_join(threads[i], NULL);
        total += workers[i].done;
        missed += workers[i].missed;
        errors += workers[i].errors;
    }
    double wall = now() - started;
    unsigned *all = malloc((total ? total : 1) * sizeof(unsigned));
    long k = 0;
    for (int i = 0; i < connections; i++) {
        memcpy(all + k, workers[i].latencies, workers[i].done * sizeof(unsigned));
        k += workers[i].done;
    }
    qsort(all, total, sizeof(unsigned), by_value);
    printf("requests=%ld seconds=%.3f rps=%.1f p50_us=%u p99_us=%u missed=%ld errors=%ld\n", total, wall, total / wall,
           total ? all[total / 2] : 0, total ? all[(long)(total * 0.99)] : 0, missed, errors);
    return 0;
}
