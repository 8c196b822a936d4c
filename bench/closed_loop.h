/* What bench/ldap_load.c and bench/http_load.c share, so the gateway and slapd are timed by
 * the same machinery: one thread a connection, each connected before the clock starts
 * (two barriers), closed loop until SECONDS have passed, every latency kept (microseconds)
 * and sorted once for p50 and p99, one key=value line printed.
 * A client's thread connects, calls wait_for_start(), then asks next_question() and
 * record()s each answer's time until it says the time is up; main() calls arguments(),
 * read_lines() and closed_loop().
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds; /* how long the load lasts */
static pthread_barrier_t ready, go; /* all connected; the clock started */
static double started;

typedef struct {
    long index, asked, done, missed, errors, capacity;
    unsigned *latencies; /* microseconds */
} worker_t;

/* argv as a client's usage line says (five arguments), else the usage and status 2. */
static void arguments(int argc, char **argv, const char *usage) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        exit(2);
    }
    seconds = atof(argv[3]);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Called by a thread once connected: returns when the clock has started. */
static void wait_for_start(void) {
    pthread_barrier_wait(&ready);
    pthread_barrier_wait(&go);
}

/* The index of this thread's next question among COUNT (each thread from its own offset,
 * in turn), t0 its start; -1 once SECONDS have passed. */
static long next_question(worker_t *w, long count, double *t0) {
    *t0 = now();
    if (*t0 - started >= seconds)
        return -1;
    return (w->index * (count / 64 + 1) + w->asked++) % count;
}

static void record(worker_t *w, double t0, double t1) {
    if (w->done == w->capacity) {
        w->capacity = w->capacity ? w->capacity * 2 : 65536;
        w->latencies = realloc(w->latencies, w->capacity * sizeof(unsigned));
    }
    w->latencies[w->done++] = (unsigned)((t1 - t0) * 1e6);
}

/* The file's non-empty lines (numbers, paths); exits with status 2 when there are none. */
static char **read_lines(const char *path, long *count) {
    FILE *in = fopen(path, "r");
    if (!in) {
        perror(path);
        exit(2);
    }
    char line[2048];
    long capacity = 1024;
    char **lines = malloc(capacity * sizeof(char *));
    *count = 0;
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!*line)
            continue;
        if (*count == capacity)
            lines = realloc(lines, (capacity *= 2) * sizeof(char *));
        lines[(*count)++] = strdup(line);
    }
    fclose(in);
    if (!*count) {
        fprintf(stderr, "no lines in %s\n", path);
        exit(2);
    }
    return lines;
}

static int by_value(const void *a, const void *b) {
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

/* CONNECTIONS threads of RUN, the clock started once all are connected; prints
 * requests=, seconds=, rps=, p50_us=, p99_us=, MISSED=, errors=. */
static int closed_loop(int connections, void *(*run)(void *), const char *missed) {
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
    long total = 0, missing = 0, errors = 0;
    for (int i = 0; i < connections; i++) {
        pthread_join(threads[i], NULL);
        total += workers[i].done;
        missing += workers[i].missed;
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
    printf("requests=%ld seconds=%.3f rps=%.1f p50_us=%u p99_us=%u %s=%ld errors=%ld\n", total, wall, total / wall,
           total ? all[total / 2] : 0, total ? all[(long)(total * 0.99)] : 0, missed, missing, errors);
    return 0;
}
