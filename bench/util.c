/* util.c: the plumbing every lcpbench subcommand shares: the monotonic clock, provenance
 * lines, the progress line, output folders and files that never replace a user's results
 * unless asked (written to a temporary name, renamed into place when complete). */
#include "bench.h"
#include "version.h"

#include <cblas.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0) {
            char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ') c++;
                c[strcspn(c, "\n")] = 0;
                snprintf(buf, len, "%s", c);
            }
            break;
        }
    fclose(f);
}

/* The provenance facts, one "key", value pair each, in a fixed order: what the "# " lines of
 * a Markdown result and provenance.json both print. */
typedef struct prov {
    char cpu[256], date[64], libs[1024], version[128];
    long cpus;
} prov;

static void prov_get(prov *p)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(p->date, sizeof p->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    cpu_model(p->cpu, sizeof p->cpu);
    p->cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const char *threads = getenv("OPENBLAS_NUM_THREADS");
    snprintf(p->libs, sizeof p->libs, "%s; OpenBLAS build: %s, kernel %s, "
             "OPENBLAS_NUM_THREADS=%s", LCPBENCH_LIBS, openblas_get_config(),
             openblas_get_corename(), threads ? threads : "unset");
    snprintf(p->version, sizeof p->version, "%s (git %s)", LCPBENCH_VERSION, LCPBENCH_GIT);
}

void bench_provenance(FILE *f, int argc, char **argv)
{
    prov p;
    prov_get(&p);
    fprintf(f, "# lcpbench: %s\n", p.version);
    fprintf(f, "# compiler: %s, flags: %s\n", LCPBENCH_CC, LCPBENCH_FLAGS);
    fprintf(f, "# cpu: %s (%ld online)\n", p.cpu, p.cpus);
    fprintf(f, "# libraries: %s\n", p.libs);
    fprintf(f, "# date: %s\n", p.date);
    if (argv) {
        fprintf(f, "# command:");
        for (int i = 0; i < argc; i++) fprintf(f, " %s", argv[i]);
        fprintf(f, "\n");
    }
}

/* s as a JSON string literal (quotes, backslashes and control characters escaped) */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\') fprintf(f, "\\%c", *c);
        else if (*c < 0x20) fprintf(f, "\\u%04x", *c);
        else fputc(*c, f);
    }
    fputc('"', f);
}

int bench_provenance_json(const char *cmd, const char *dir, int argc, char **argv)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/provenance.json", dir);
    return bench_provenance_file(cmd, path, argc, argv);
}

int bench_provenance_file(const char *cmd, const char *path, int argc, char **argv)
{
    char msg[8400];
    bench_out o;
    if (bench_out_open(&o, path, 1, msg, sizeof msg) != 0) {
        bench_error(cmd, "%s", msg);
        return 1;
    }
    prov p;
    prov_get(&p);
    FILE *f = o.f;
    const char *key[] = {"lcpbench", "compiler", "flags", "cpu", "libraries", "date"};
    const char *val[] = {p.version, LCPBENCH_CC, LCPBENCH_FLAGS, p.cpu, p.libs, p.date};
    fprintf(f, "{\n");
    for (size_t k = 0; k < sizeof key / sizeof key[0]; k++) {
        fprintf(f, "  ");
        json_str(f, key[k]);
        fprintf(f, ": ");
        json_str(f, val[k]);
        fprintf(f, ",\n");
    }
    fprintf(f, "  \"cpus_online\": %ld,\n  \"command\": [", p.cpus);
    for (int i = 0; argv && i < argc; i++) {
        if (i) fprintf(f, ", ");
        json_str(f, argv[i]);
    }
    fprintf(f, "]\n}\n");
    if (bench_out_commit(&o, 1, msg, sizeof msg) != 0) {
        bench_error(cmd, "%s", msg);
        return 1;
    }
    return 0;
}

void bench_csv_field(FILE *f, const char *s)
{
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void bench_progress_start(bench_progress *p, const char *label, long total)
{
    p->label = label;
    p->total = total;
    p->done = 0;
    p->t0 = p->last = bench_now();
    p->tty = isatty(STDERR_FILENO);
}

void bench_progress_step(bench_progress *p, long increment)
{
    p->done += increment;
    if (!p->tty) return;
    double t = bench_now();
    if (t - p->last < 0.2 && p->done < p->total) return;
    p->last = t;
    double el = t - p->t0;
    double eta = p->done > 0 ? el * (double)(p->total - p->done) / (double)p->done : 0.0;
    fprintf(stderr, "\r%s: %ld/%ld (%.0f%%) %.1fs elapsed, ~%.0fs left   ", p->label, p->done,
            p->total, p->total ? 100.0 * (double)p->done / (double)p->total : 100.0, el, eta);
    fflush(stderr);
}

void bench_progress_end(bench_progress *p)
{
    if (p->tty) fprintf(stderr, "\r%s: %ld/%ld done in %.1fs%30s\n", p->label, p->done, p->total,
                        bench_now() - p->t0, "");
}

static void say(char *msg, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (msg && len) vsnprintf(msg, len, fmt, ap);
    va_end(ap);
}

int bench_mkdir_p(const char *dir, char *msg, size_t msglen)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) {
        say(msg, msglen, "%s: path too long", dir);
        return -1;
    }
    for (char *s = buf + 1; ; s++) {
        char c = *s;
        if (c == '/' || c == 0) {
            *s = 0;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
                say(msg, msglen, "%s: cannot create folder: %s", buf, strerror(errno));
                return -1;
            }
            struct stat st;
            if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
                say(msg, msglen, "%s: exists and is not a folder", buf);
                return -1;
            }
            *s = c;
        }
        if (c == 0) break;
    }
    return 0;
}

int bench_out_open(bench_out *o, const char *path, int force, char *msg, size_t msglen)
{
    o->f = NULL;
    if (snprintf(o->path, sizeof o->path, "%s", path) >= (int)sizeof o->path ||
        snprintf(o->tmp, sizeof o->tmp, "%s.tmp%ld", path, (long)getpid()) >= (int)sizeof o->tmp) {
        say(msg, msglen, "%s: path too long", path);
        return -1;
    }
    if (!force && access(path, F_OK) == 0) {
        say(msg, msglen, "%s: exists (use --force to replace it)", path);
        return -1;
    }
    o->f = fopen(o->tmp, "w");
    if (!o->f) {
        say(msg, msglen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int bench_out_commit(bench_out *o, int ok, char *msg, size_t msglen)
{
    if (!o->f) return -1;
    int bad = ferror(o->f);
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (ok && !bad && rename(o->tmp, o->path) == 0) return 0;
    if (ok) say(msg, msglen, "%s: write failed: %s", o->path, strerror(errno));
    remove(o->tmp);
    return -1;
}

void bench_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "lcpbench %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

int bench_opt(int argc, char **argv, int *k, const char *name, const char **val)
{
    const char *a = argv[*k];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0) return 0;
    if (a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (a[n] != 0) return 0;
    if (*k + 1 >= argc) {
        fprintf(stderr, "lcpbench %s: %s needs a value\n", argv[0], name);
        return -1;
    }
    *val = argv[++*k];
    return 1;
}

int bench_parse_double(const char *cmd, const char *opt, const char *s, double *out)
{
    if (bench_parse_number(s, out) == 0) return 0;
    bench_error(cmd, "%s: '%s' is not a number", opt, s);
    return -1;
}

int bench_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != 0 || errno == ERANGE || v < lo || v > hi) {
        bench_error(cmd, "%s: '%s' is not an integer in %ld..%ld", opt, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* ---- instance names ------------------------------------------------------------------------ */

/* length of p without trailing slashes */
static size_t trimmed(const char *p)
{
    size_t n = strlen(p);
    while (n > 1 && p[n - 1] == '/') n--;
    return n;
}

/* start of the last component of p[0..n) */
static size_t base_at(const char *p, size_t n)
{
    size_t b = n;
    while (b > 0 && p[b - 1] != '/') b--;
    return b;
}

int bench_instance_names(int n, char *const *paths, char *names, size_t len)
{
    int clash = 0;
    for (int i = 0; i < n && !clash; i++)
        for (int j = 0; j < i && !clash; j++) {
            size_t ni = trimmed(paths[i]), nj = trimmed(paths[j]);
            size_t bi = base_at(paths[i], ni), bj = base_at(paths[j], nj);
            clash = ni - bi == nj - bj && !memcmp(paths[i] + bi, paths[j] + bj, ni - bi);
        }
    size_t common = n > 0 ? base_at(paths[0], trimmed(paths[0])) : 0;  /* with its '/' */
    for (int i = 1; clash && i < n; i++) {
        size_t c = 0;
        while (c < common && paths[i][c] == paths[0][c]) c++;
        while (c > 0 && paths[0][c - 1] != '/') c--;                   /* whole components */
        common = c;
    }
    for (int i = 0; i < n; i++) {
        size_t end = trimmed(paths[i]), from = clash ? common : base_at(paths[i], end);
        if (end - from >= len) return -1;
        snprintf(names + (size_t)i * len, len, "%.*s", (int)(end - from), paths[i] + from);
    }
    return 0;
}
