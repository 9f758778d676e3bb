/* util.c: the plumbing every lcpbench subcommand shares: the monotonic clock, provenance
 * lines, the progress line, output folders and files that never replace a user's results
 * unless asked (written to a temporary name, renamed into place when complete), and what a
 * SIGINT or SIGTERM leaves: the previous results, no temporary file or folder
 * (bench/README.md, "Interrupted runs").  The temporary trees are removed in the signal handler with
 * Linux system calls only (openat, getdents64, unlinkat), which are async-signal-safe. */
#define _GNU_SOURCE 1   /* syscall(SYS_getdents64) */
#include "kit.h"
#include "lcp_internal.h" /* lcp_escape_byte: one escape for the library's and our lines */
#include "version.h"

#include <cblas.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* OpenBLAS's pthreads build starts its worker threads in its load-time constructor, before
 * main(), and each maps its 128 MiB work buffer at once (blas_thread_server: BUFFER_SIZE =
 * 32 << 22 bytes on x86-64, plus a page); a mapping refused by an address-space limit is
 * retried forever (0.3.21's blas_memory_alloc loops), so such a worker spins for the life of
 * the process, and exit() never returns: OpenBLAS's destructor (gotoblas_quit) joins it.
 * Every command, `lcpbench list' included, hung after its output under `ulimit -v 100000'
 * with more than one thread, OPENBLAS_NUM_THREADS unset included (the constructor starts one
 * thread per core before main sets 1).  The thread count is read from the environment at
 * load, so the only cure is a process that starts with OPENBLAS_NUM_THREADS=1: when an
 * address-space limit leaves no room for the buffers of all the threads (one mapping of that
 * size, made the way OpenBLAS makes it and never touched, is refused), the program executes
 * itself again with OPENBLAS_NUM_THREADS=1 (same pid, arguments and descriptors; nothing has
 * been read or written yet).  Those threads could never have worked under that limit. */
#define BENCH_BLAS_BUFFER ((size_t)(32 << 22) + 4096)
void bench_blas_fit(char **argv)
{
    struct rlimit rl;
    int t = openblas_get_num_threads();
    if (t <= 1 || getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return;
    const char *v = getenv("OPENBLAS_NUM_THREADS");
    if (v && strcmp(v, "1") == 0) return;                 /* already re-executed: no loop */
    size_t len = (size_t)t * BENCH_BLAS_BUFFER;
    void *probe = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (probe != MAP_FAILED) {
        munmap(probe, len);
        return;
    }
    if (setenv("OPENBLAS_NUM_THREADS", "1", 1) != 0) return;
    execv("/proc/self/exe", argv);                        /* returns only when it failed */
}

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
    return bench_provenance_ranks(cmd, path, argc, argv, 0, NULL, 0);
}

int bench_provenance_ranks(const char *cmd, const char *path, int argc, char **argv,
                           int nranks, const char *hosts, size_t hostlen)
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
    fprintf(f, "]");
    if (nranks > 0) {
        fprintf(f, ",\n  \"ranks\": %d,\n  \"hosts\": [", nranks);
        for (int r = 0; r < nranks; r++) {
            if (r) fprintf(f, ", ");
            json_str(f, hosts + (size_t)r * hostlen);
        }
        fprintf(f, "]");
    }
    fprintf(f, "\n}\n");
    if (bench_out_commit(&o, 1, msg, sizeof msg) != 0) {
        bench_error(cmd, "%s", msg);
        return 1;
    }
    return 0;
}

int bench_meta_value(const char *meta, const char *key, char *out, size_t len)
{
    size_t kl = strlen(key);
    for (const char *s = meta; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
        if (strncmp(s, key, kl) != 0 || strncmp(s + kl, " = ", 3) != 0) continue;
        const char *v = s + kl + 3;
        size_t n = strcspn(v, "\n");
        while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\r')) n--;
        snprintf(out, len, "%.*s", (int)n, v);
        return 1;
    }
    snprintf(out, len, "%s", "");
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

/* output folders and files that could not be made or written (bench_mkdir_p,
 * bench_out_open, bench_out_commit): a staged folder is complete only while this stays */
static int write_failures;

int bench_write_failures(void)
{
    return write_failures;
}

void bench_write_failed(void)
{
    write_failures++;
}

FILE *bench_fopen_read(const char *path, const char **why)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);   /* a FIFO: no wait for a writer */
    struct stat st;
    *why = NULL;
    if (fd < 0) {
        *why = strerror(errno);
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *why = "not a regular file";
        close(fd);
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl != -1) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "r");
    if (!f) {
        *why = strerror(errno);
        close(fd);
    }
    return f;
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
                write_failures++;
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

/* ---- interrupted commands ------------------------------------------------------------------ */

/* What a signal must remove: the temporary files and folders being written, and the forked
 * measurement child.  A signal handler can only reach static storage, so this record is the
 * one piece of mutable global state of the program (written by the main flow only, read by
 * the handler; a slot's path is complete before its flag is set). */
enum { NCLEAN = 16 };
static struct {
    volatile sig_atomic_t used[NCLEAN];   /* 0 free, 1 a file, 2 a folder tree */
    char path[NCLEAN][4200];
    volatile sig_atomic_t child;          /* pid of the measurement child, 0 none */
    volatile sig_atomic_t owner;          /* pid that installed the handler */
    int installed;
} cleanup;

struct dirent64_raw {                     /* the kernel's record of getdents64 */
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

/* remove name (a file, or a folder and everything under it) relative to folder fd dfd, with
 * async-signal-safe calls only; depth bounds the recursion */
static void remove_at(int dfd, const char *name, int depth)
{
    if (unlinkat(dfd, name, 0) == 0 || errno == ENOENT || depth > 16) return;
    int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return;
    char buf[2048] __attribute__((aligned(8)));
    int removed;
    do {                                  /* passes from the start until a pass finds nothing */
        removed = 0;
        lseek(fd, 0, SEEK_SET);
        long n;
        while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
            for (long at = 0; at < n;) {
                const struct dirent64_raw *d = (const void *)(buf + at);
                at += d->reclen;
                if (!strcmp(d->name, ".") || !strcmp(d->name, "..")) continue;
                remove_at(fd, d->name, depth + 1);
                removed = 1;
            }
    } while (removed);
    close(fd);
    unlinkat(dfd, name, AT_REMOVEDIR);
}

static void on_signal(int sig)
{
    if ((sig_atomic_t)getpid() == cleanup.owner) {   /* not in a forked child */
        if (cleanup.child > 0) kill((pid_t)cleanup.child, SIGKILL);
        for (int k = 0; k < NCLEAN; k++)
            if (cleanup.used[k]) remove_at(AT_FDCWD, cleanup.path[k], 0);
    }
    signal(sig, SIG_DFL);
    raise(sig);                           /* delivered on return: ends with the signal's status */
}

static void install(void)
{
    if (cleanup.installed) return;
    cleanup.installed = 1;
    cleanup.owner = (sig_atomic_t)getpid();
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        struct sigaction old, sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (size_t j = 0; j < sizeof sigs / sizeof sigs[0]; j++) sigaddset(&sa.sa_mask, sigs[j]);
        if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[k], &sa, NULL);   /* an ignored signal (nohup) stays ignored */
    }
}

/* a slot for path (kind 1 file, 2 tree), or -1 when all are taken (then it is not cleaned) */
static int clean_add(const char *path, int kind)
{
    install();
    for (int k = 0; k < NCLEAN; k++)
        if (!cleanup.used[k]) {
            snprintf(cleanup.path[k], sizeof cleanup.path[k], "%s", path);
            cleanup.used[k] = kind;
            return k;
        }
    return -1;
}

static void clean_drop(int slot)
{
    if (slot >= 0 && slot < NCLEAN) cleanup.used[slot] = 0;
}

int bench_cleanup_file(const char *path)
{
    return clean_add(path, 1);
}

void bench_cleanup_done(int slot)
{
    clean_drop(slot);
}

void bench_cleanup_child(long pid)
{
    cleanup.child = (sig_atomic_t)pid;
}

/* block (1) or unblock (0) the signals the handler takes */
static void hold(int on, sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGHUP);
    if (on) sigprocmask(SIG_BLOCK, &s, old);
    else sigprocmask(SIG_SETMASK, old, NULL);
}

void bench_remove_tree(const char *path)
{
    remove_at(AT_FDCWD, path, 0);
}

int bench_stage_open(const char *cmd, bench_stage *s, const char *dir, int force)
{
    char msg[8400] = "";
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    s->slot = -1;
    s->failures = write_failures;
    if (n + 32 >= sizeof s->dir) {
        bench_error(cmd, "%s: path too long", dir);
        return 1;
    }
    snprintf(s->dir, sizeof s->dir, "%.*s", (int)n, dir);
    snprintf(s->work, sizeof s->work, "%s.tmp%ld", s->dir, (long)getpid());
    snprintf(s->old, sizeof s->old, "%s.old%ld", s->dir, (long)getpid());
    struct stat st;
    if (stat(s->dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        bench_error(cmd, "%s: exists and is not a folder", s->dir);
        return 1;
    }
    if (!force && bench_dir_nonempty(s->dir)) {
        bench_error(cmd, "%s is not empty (use --force to replace its results)", s->dir);
        return 1;
    }
    bench_remove_tree(s->work);          /* a leftover of a killed process with our pid */
    s->slot = clean_add(s->work, 2);
    char mark[sizeof s->work + 16];
    snprintf(mark, sizeof mark, "%s/INCOMPLETE", s->work);
    FILE *f = NULL;
    if (bench_mkdir_p(s->work, msg, sizeof msg) != 0 || !(f = fopen(mark, "w"))) {
        if (!f && msg[0] == 0) snprintf(msg, sizeof msg, "%s: %s", mark, strerror(errno));
        bench_error(cmd, "%s", msg);
        bench_stage_commit(cmd, s, 0);
        return 1;
    }
    fprintf(f, "lcpbench %s has not finished writing this folder (it was interrupted, or a "
               "process died): its results are not usable.\n", cmd);
    fclose(f);
    return 0;
}

int bench_stage_commit(const char *cmd, bench_stage *s, int ok)
{
    int lost = ok && write_failures != s->failures;  /* incomplete: a file was not written */
    if (!ok || lost) {
        bench_remove_tree(s->work);
        clean_drop(s->slot);
        s->slot = -1;
        return lost;
    }
    char mark[sizeof s->work + 16];
    snprintf(mark, sizeof mark, "%s/INCOMPLETE", s->work);
    sigset_t old;
    hold(1, &old);                       /* the swap is not interrupted half-way */
    int had = access(s->dir, F_OK) == 0, bad = 0;
    bench_remove_tree(s->old);
    if (unlink(mark) != 0 || (had && rename(s->dir, s->old) != 0)) bad = 1;
    else if (rename(s->work, s->dir) != 0) {
        bad = 1;
        if (had) rename(s->old, s->dir);
    }
    int e = errno;
    if (bad) bench_remove_tree(s->work);
    clean_drop(s->slot);
    s->slot = -1;
    hold(0, &old);
    if (bad) {
        bench_error(cmd, "%s: cannot put the results in place: %s", s->dir, strerror(e));
        return 1;
    }
    if (had) bench_remove_tree(s->old);
    return 0;
}

int bench_stage_merge(const char *cmd, bench_stage *s, int force)
{
    char mark[sizeof s->work + 16], msg[8400];
    snprintf(mark, sizeof mark, "%s/INCOMPLETE", s->work);
    if (write_failures != s->failures) return bench_stage_commit(cmd, s, 1);  /* none moved */
    unlink(mark);
    int bad = bench_mkdir_p(s->dir, msg, sizeof msg) != 0;
    if (bad) bench_error(cmd, "%s", msg);
    DIR *d = bad ? NULL : opendir(s->work);
    struct dirent *e;
    sigset_t old;
    hold(1, &old);                       /* the moves are not interrupted half-way */
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char from[sizeof s->work + 260], to[sizeof s->dir + 260];
        snprintf(from, sizeof from, "%s/%s", s->work, e->d_name);
        snprintf(to, sizeof to, "%s/%s", s->dir, e->d_name);
        if (!force && strcmp(e->d_name, "provenance.json") && strcmp(e->d_name, "runs.csv") &&
            access(to, F_OK) == 0) {   /* solve --history: its runs.csv holds the old rows */
            bench_error(cmd, "%s exists (use --force to replace it)", to);
            bad = 1;
        } else if (rename(from, to) != 0) {
            bench_error(cmd, "%s: cannot put in place: %s", to, strerror(errno));
            bad = 1;
        }
    }
    if (d) closedir(d);
    bench_remove_tree(s->work);
    clean_drop(s->slot);
    s->slot = -1;
    hold(0, &old);
    return bad;
}

int bench_incomplete(const char *cmd, const char *dir)
{
    char mark[4200];
    snprintf(mark, sizeof mark, "%s/INCOMPLETE", dir);
    if (access(mark, F_OK) != 0) return 0;
    bench_error(cmd, "%s is incomplete (its run was interrupted or a process died; run it "
                     "again)", dir);
    return 1;
}

/* the pid written in the lock file fd (0 when none yet: its holder has just locked it) */
static long lock_pid(int fd)
{
    char buf[32];
    ssize_t r = pread(fd, buf, sizeof buf - 1, 0);
    buf[r > 0 ? r : 0] = '\0';
    char *e;
    long pid = strtol(buf, &e, 10);
    return e != buf && *e == '\n' && pid > 0 ? pid : 0;
}

int bench_lock_take(const char *cmd, bench_lock *l, const char *dir)
{
    char msg[8400];
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    l->fd = -1;
    l->slot = -1;
    if (snprintf(l->path, sizeof l->path, "%.*s.lock", (int)n, dir) >= (int)sizeof l->path) {
        bench_error(cmd, "%s: path too long", dir);
        return 1;
    }
    for (int tries = 0; tries < 100; tries++) {
        int fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd < 0 && errno == ENOENT && tries == 0) {      /* DIR's parent: made as staging would */
            char parent[sizeof l->path];
            snprintf(parent, sizeof parent, "%s", l->path);
            char *slash = strrchr(parent, '/');
            if (slash && slash != parent) {
                *slash = '\0';
                if (bench_mkdir_p(parent, msg, sizeof msg) != 0) {
                    bench_error(cmd, "%s", msg);
                    return 1;
                }
                continue;
            }
        }
        if (fd < 0) {
            bench_error(cmd, "%s: cannot make the lock of %.*s: %s", l->path, (int)n, dir,
                        strerror(errno));
            return 1;
        }
        /* a POSIX record lock: the process's own, not inherited by the children it forks
         * (the measurement child of a timeout= run would hold a flock() past its parent) */
        struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
        if (fcntl(fd, F_SETLK, &fl) != 0) {
            int e = errno, held = e == EACCES || e == EAGAIN;
            long pid = 0;
            for (int w = 0; held && w < 100 && !(pid = lock_pid(fd)); w++)
                usleep(10000);                               /* the holder writes it next */
            struct flock gl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
            if (held && !pid && fcntl(fd, F_GETLK, &gl) == 0 && gl.l_type != F_UNLCK)
                pid = (long)gl.l_pid;
            close(fd);
            if (!held)
                bench_error(cmd, "%s: cannot lock: %s", l->path, strerror(e));
            else if (pid)
                bench_error(cmd, "%.*s: another lcpbench (pid %ld) is writing this folder "
                            "(lock %s); wait for it to end or choose another folder",
                            (int)n, dir, pid, l->path);
            else
                bench_error(cmd, "%.*s: another lcpbench (pid unknown) is writing this "
                            "folder (lock %s); wait for it to end or choose another folder",
                            (int)n, dir, l->path);
            return 1;
        }
        /* the file locked must still be the one at the path: its holder removes it when it
         * ends, and a process that opened it just before locks a file nobody else sees */
        struct stat a, b;
        if (fstat(fd, &a) != 0 || stat(l->path, &b) != 0 || a.st_dev != b.st_dev ||
            a.st_ino != b.st_ino) {
            close(fd);
            continue;
        }
        /* ours: a file left by a holder that died (stale: unlocked) is taken over */
        char pid[32];
        int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
        if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)len, 0) != len) {
            bench_error(cmd, "%s: cannot write the lock: %s", l->path, strerror(errno));
            unlink(l->path);
            close(fd);
            return 1;
        }
        l->fd = fd;
        l->slot = clean_add(l->path, 1);                     /* a signal removes it too */
        return 0;
    }
    bench_error(cmd, "%s: cannot take the lock (it keeps being replaced)", l->path);
    return 1;
}

void bench_lock_release(bench_lock *l)
{
    if (!l || l->fd < 0) return;
    sigset_t old;
    hold(1, &old);
    unlink(l->path);                /* while locked: see the inode check of bench_lock_take */
    clean_drop(l->slot);
    close(l->fd);
    l->fd = l->slot = -1;
    hold(0, &old);
}

int bench_out_open(bench_out *o, const char *path, int force, char *msg, size_t msglen)
{
    o->f = NULL;
    o->slot = -1;
    if (snprintf(o->path, sizeof o->path, "%s", path) >= (int)sizeof o->path ||
        snprintf(o->tmp, sizeof o->tmp, "%s.tmp%ld", path, (long)getpid()) >= (int)sizeof o->tmp) {
        say(msg, msglen, "%s: path too long", path);
        return -1;
    }
    if (!force && access(path, F_OK) == 0) {
        say(msg, msglen, "%s: exists (use --force to replace it)", path);
        return -1;
    }
    o->slot = clean_add(o->tmp, 1);
    o->f = fopen(o->tmp, "w");
    if (!o->f) {
        clean_drop(o->slot);
        say(msg, msglen, "%s: cannot write: %s", path, strerror(errno));
        write_failures++;
        return -1;
    }
    return 0;
}

int bench_out_commit(bench_out *o, int ok, char *msg, size_t msglen)
{
    if (!o->f) return -1;
    errno = 0;
    int bad = fflush(o->f) != 0, e = bad ? errno : 0;  /* the last buffer (a full disk) */
    if (!bad && ferror(o->f)) bad = 1, e = EIO;   /* an earlier write's, its errno gone */
    if (fclose(o->f) != 0 && !bad) bad = 1, e = errno;
    o->f = NULL;
    if (ok && !bad && rename(o->tmp, o->path) == 0) {
        clean_drop(o->slot);
        return 0;
    }
    if (ok && !bad) e = errno;                   /* the rename's */
    if (ok) {
        say(msg, msglen, "%s: write failed: %s", o->path, strerror(e ? e : EIO));
        write_failures++;
    }
    remove(o->tmp);
    clean_drop(o->slot);
    return -1;
}

/* s into out (len bytes) with its control characters written as C escapes: a newline as
 * the two characters \n, also \r and \t, any other (ESC, DEL) as \xHH; cut before an
 * escape that does not fit.  Bytes from 0x80 (UTF-8) and the backslash are kept: liblcp's
 * messages come escaped the same way (lcp_fail) and are not escaped twice. */
static void escape_line(char *out, size_t len, const char *s)
{
    size_t o = 0;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        char buf[5];
        const char *e = lcp_escape_byte(*c, buf);
        size_t w = *e ? strlen(e) : 1;
        if (o + w >= len) break;
        if (*e) memcpy(out + o, e, w);
        else out[o] = (char)*c;
        o += w;
    }
    out[o] = '\0';
}

/* every error and note line of the harness: one line, whatever the paths and names it
 * quotes hold (a newline in a folder's name is written \n: escape_line) */
static void say_line(const char *cmd, const char *fmt, va_list ap)
{
    char buf[16384], line[16384], tag[32];
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    /* a path inside a staged folder (DIR.tmpPID/FILE, this process's) is named as the user
     * wrote it, DIR/FILE: the temporary folder is gone by the time the line is read */
    int t = snprintf(tag, sizeof tag, ".tmp%ld/", (long)getpid());
    char *p = n > 0 && (size_t)n < sizeof buf ? strstr(buf, tag) : NULL;
    for (; p; p = strstr(p, tag)) memmove(p, p + t - 1, strlen(p + t - 1) + 1);
    escape_line(line, sizeof line, buf);
    char cmdline[256];
    escape_line(cmdline, sizeof cmdline, cmd);
    fprintf(stderr, "lcpbench %s: %s\n", cmdline, line);
}

void bench_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_line(cmd, fmt, ap);
    va_end(ap);
}

void bench_note(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_line(cmd, fmt, ap);
    va_end(ap);
}

/* the errno of standard output's first failed flush (0: none yet) */
static int stdout_errno;

void bench_flush_stdout(void)
{
    errno = 0;
    if (fflush(stdout) != 0 && !stdout_errno) stdout_errno = errno ? errno : EIO;
}

int bench_stdout_status(const char *cmd, int rc)
{
    bench_flush_stdout();
    if (!ferror(stdout)) return rc;
    bench_error(cmd, "standard output: write failed: %s",
                strerror(stdout_errno ? stdout_errno : EIO));
    return rc ? rc : 2;
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

int bench_parse_factor_tol(const char *cmd, const char *s, double *out)
{
    if (strcmp(s, "off") == 0) {
        *out = -1.0;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !(v >= 0.0 && v < 1.0)) {
        bench_error(cmd, "--factor-tol: '%s' is not a relative tolerance in [0, 1) or off", s);
        return -1;
    }
    *out = v;
    return 0;
}

/* ---- output folders and files (one error line each) ---------------------------------------- */

int bench_dir_nonempty(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int any = 0;
    struct dirent *e;
    while (!any && (e = readdir(d)))
        any = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return any;
}

int bench_out_dir(const char *cmd, const char *dir, int force)
{
    char msg[4400];
    if (!force && bench_dir_nonempty(dir)) {
        bench_error(cmd, "%s is not empty (use --force to replace its results)", dir);
        return 1;
    }
    if (bench_mkdir_p(dir, msg, sizeof msg) != 0) {
        bench_error(cmd, "%s", msg);
        return 1;
    }
    return 0;
}

FILE *bench_open(const char *cmd, bench_out *o, const char *path, int force)
{
    char msg[4400];
    if (bench_out_open(o, path, force, msg, sizeof msg) == 0) return o->f;
    bench_error(cmd, "%s", msg);
    return NULL;
}

int bench_close(const char *cmd, bench_out *o)
{
    char msg[4400];
    if (bench_out_commit(o, 1, msg, sizeof msg) == 0) return 0;
    bench_error(cmd, "%s", msg);
    return 1;
}

void bench_safe_name(const char *s, char *out, size_t len)
{
    size_t k = 0;
    for (; s[k] && k + 1 < len; k++) {
        unsigned char c = (unsigned char)s[k];
        out[k] = (isalnum(c) || c == '.' || c == '-' || c == '_') ? (char)c : '_';
    }
    if (len) out[k < len ? k : len - 1] = 0;
}

/* ---- growing text ------------------------------------------------------------------------ */

void bench_text_add(bench_text *b, const char *fmt, ...)
{
    va_list ap;
    for (int pass = 0; pass < 2 && !b->failed; pass++) {
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) b->failed = 1;
        else if (b->s && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        } else {
            size_t cap = 2 * (b->cap + (size_t)k + 256);
            char *s = lcp_realloc(b->s, cap, 1);
            if (!s) b->failed = 1;
            else {
                b->s = s;
                b->cap = cap;
            }
        }
    }
}
