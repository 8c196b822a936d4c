/* A closed-loop LDAP load generator: the same caller-ID question a desk phone asks slapd,
 * from C, so the figures are slapd's and not a client library's (a Python ldap3 loop tops
 * out near 1,100 searches/s from one process, under what slapd answers).
 *
 *   ldap_load URI BASE SECONDS CONNECTIONS NUMBERS_FILE
 *
 * One thread a connection, each bound anonymously before the clock starts, then asking
 * (|(telephoneNumber=N)(mobile=N)) for the file's numbers in turn (each thread from its own
 * offset) until SECONDS have passed; a reply is read to its SearchResultDone. Prints one
 * line of key=value figures: requests, seconds, rps, p50_us, p99_us, notfound, errors
 * (bench/closed_loop.h, shared with bench/http_load.c).
 * Built by bench/gateway_bench.py: cc -O2 -o ldap_load ldap_load.c -lldap -llber -lpthread
 * (Debian: libldap-dev).
 */
#define LDAP_DEPRECATED 0
#include <ldap.h>

#include "closed_loop.h"

static const char *uri, *base;
static char **numbers;
static long count;

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
    wait_for_start();
    double t0;
    long i;
    while ((i = next_question(w, count, &t0)) >= 0) {
        const char *n = numbers[i];
        snprintf(filter, sizeof filter, "(|(telephoneNumber=%s)(mobile=%s))", n, n);
        LDAPMessage *res = NULL;
        int rc = ldap_search_ext_s(ld, base, LDAP_SCOPE_SUBTREE, filter, attrs, 0, NULL, NULL, NULL, 0, &res);
        double t1 = now();
        if (rc != LDAP_SUCCESS)
            w->errors++;
        else if (ldap_count_entries(ld, res) == 0)
            w->missed++;
        if (res)
            ldap_msgfree(res);
        record(w, t0, t1);
    }
    ldap_unbind_ext_s(ld, NULL, NULL);
    return NULL;
}

int main(int argc, char **argv) {
    arguments(argc, argv, "URI BASE SECONDS CONNECTIONS NUMBERS_FILE");
    uri = argv[1];
    base = argv[2];
    numbers = read_lines(argv[5], &count);
    return closed_loop(atoi(argv[4]), run, "notfound");
}
