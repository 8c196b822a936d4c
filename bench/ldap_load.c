/* A closed-loop LDAP load generator: the same caller-ID question a desk phone asks slapd,
 * from C, so the figures are slapd's and not a client library's (a Python ldap3 loop tops
 * out near 1,100 searches/s from one process, under what slapd answers).
 *
 *   ldap_load URI BASE SECONDS CONNECTIONS NUMBERS_FILE
 *
 * One thread a connection, each bound anonymously before the clock starts, then asking
 * (|(telephoneNumber=N)(mobile=N)) for the file's numbers in turn (each thread from its own
 * offset) until SECONDS have passed; a reply is read to its SearchResultDone. Prints one
 * line of key=value figures: requests, seconds, rps, p50_us, p99_us, notfound, errors.
 * Built by bench/gateway_bench.py: cc -O2 -o ldap_load ldap_load.c -lldap -llber -lpthread
 * (Debian: libldap-dev).
 */
#define LDAP_DEPRECATED 0
#include <ldap.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *uri, *base;
static double seconds;
static char **numbers;
static long count;
static pthread_barrier_t ready, go; /* all connected; the clock started */
static double started;

typedef struct {
    long index, done, notfound, errors, capacity;
    unsigned *latencies; /* microseconds */
} worker_t;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void *run(void *arg) {
    worker_t *w = arg;
    LDAP *ld = NULL;
    int version = LDAP_VERSION3;
    struct berval anonymous = {0, NULL};
    char *attrs[] = {"displayName", NULL};
    char filter[256];
    if (ldap_initialize(&ld, uri) != LDAP_SUCCESS ||
        ldap_set_option(ld, LDAP_OPT_PROTOCOL_VERSION, &version) != LDAP_OPT_SUCCESS ||
        ldap_sasl_bind_s(ld, NULL, LDAP_SASL_SIMPLE, &anonymous, NULL, NULL, NULL) != LDAP_SUCCESS) {
        fprintf(stderr, "ldap_load: cannot connect to %s\n", uri);
        exit(2);
    }
    pthread_barrier_wait(&ready);
    pthread_barrier_wait(&go);
    long at = w->index * (count / 64 + 1);
    while (1) {
        double t0 = now();
        if (t0 - started >= seconds)
            break;
        const char *n = numbers[at++ % count];
        snprintf(filter, sizeof filter, "(|(telephoneNumber=%s)(mobile=%s))", n, n);
        LDAPMessage *res = NULL;
        int rc = ldap_search_ext_s(ld, base, LDAP_SCOPE_SUBTREE, filter, attrs, 0, NULL, NULL, NULL, 0, &res);
        double t1 = now();
        if (rc != LDAP_SUCCESS)
            w->errors++;
        else if (ldap_count_entries(ld, res) == 0)
            w->notfound++;
        if (res)
            ldap_msgfree(res);
        if (w->done == w->capacity) {
            w->capacity = w->capacity ? w->capacity * 2 : 65536;
            w->latencies = realloc(w->latencies, w->capacity * sizeof(unsigned));
        }
        w->latencies[w->done++] = (unsigned)((t1 - t0) * 1e6);
    }
    ldap_unbind_ext_s(ld, NULL, NULL);
    return NULL;
}

static int by_value(const void *a, const void *b) {
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: ldap_load URI BASE SECONDS CONNECTIONS NUMBERS_FILE\n");
        return 2;
    }
    uri = argv[1];
    base = argv[2];
    seconds = atof(argv[3]);
    int connections = atoi(argv[4]);
    FILE *in = fopen(argv[5], "r");
    if (!in) {
        perror(argv[5]);
        return 2;
    }
    char line[128];
    long capacity = 1024;
    numbers = malloc(capacity * sizeof(char *));
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!*line)
            continue;
        if (count == capacity)
            numbers = realloc(numbers, (capacity *= 2) * sizeof(char *));
        numbers[count++] = strdup(line);
    }
    fclose(in);
    if (!count) {
        fprintf(stderr, "ldap_load: no numbers in %s\n", argv[5]);
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
    long total = 0, notfound = 0, errors = 0;
    for (int i = 0; i < connections; i++) {
        pthread_join(threads[i], NULL);
        total += workers[i].done;
        notfound += workers[i].notfound;
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
    printf("requests=%ld seconds=%.3f rps=%.1f p50_us=%u p99_us=%u notfound=%ld errors=%ld\n", total, wall,
           total / wall, total ? all[total / 2] : 0, total ? all[(long)(total * 0.99)] : 0, notfound, errors);
    return 0;
}
