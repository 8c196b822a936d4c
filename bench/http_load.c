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
 * requests, seconds, rps, p50_us, p99_us, missed (a status other than 2xx), errors
 * (bench/closed_loop.h, shared with bench/ldap_load.c).
 * Built by bench/gateway_bench.py: cc -O2 -o http_load http_load.c -lpthread
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "closed_loop.h"

static const char *host;
static int port;
static char **requests;
static size_t *lengths;
static long count;

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

/* One reply read whole: its status, or -1 when the connection failed or the reply is not HTTP.
 * The body is read by its Content-Length: the replies this bench asks for (caller-ID, a
 * static file) all carry one; a chunked reply would leave bytes that fail the next read,
 * counted as an error (and a new connection). */
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
    wait_for_start();
    double t0;
    long i;
    while ((i = next_question(w, count, &t0)) >= 0) {
        int status = send(fd, requests[i], lengths[i], MSG_NOSIGNAL) == (ssize_t)lengths[i] ? read_reply(fd, buffer, sizeof buffer) : -1;
        double t1 = now();
        if (status < 0) {
            w->errors++;
            close(fd);
            fd = connect_to();
            continue;
        }
        if (status < 200 || status > 299)
            w->missed++;
        record(w, t0, t1);
    }
    close(fd);
    return NULL;
}

int main(int argc, char **argv) {
    arguments(argc, argv, "HOST PORT SECONDS CONNECTIONS PATHS_FILE");
    host = argv[1];
    port = atoi(argv[2]);
    char **paths = read_lines(argv[5], &count);
    requests = malloc(count * sizeof(char *));
    lengths = malloc(count * sizeof(size_t));
    for (long i = 0; i < count; i++) { /* as wrk.format writes a GET: the request line, Host, the blank line */
        size_t size = strlen(paths[i]) + strlen(host) + 64;
        requests[i] = malloc(size);
        lengths[i] = snprintf(requests[i], size, "GET %s HTTP/1.1\r\nHost: %s:%d\r\n\r\n", paths[i], host, port);
    }
    return closed_loop(atoi(argv[4]), run, "missed");
}
