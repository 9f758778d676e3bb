/* fuzz_replay.c: the fuzz targets' committed inputs replayed through the whole library,
 * peer libraries included (the libFuzzer build, fuzz.sh, leaves the peers out: it compiles
 * the library's own sources without LCP_HAVE_*).  Linked with tests/robust/fuzz_solve.c or
 * tests/robust/fuzz_read.c (both define LLVMFuzzerInitialize), whose LLVMFuzzerTestOneInput aborts on a violated rule (a usable
 * status with a non-finite residual, a status other than info.status, ...); each input is
 * run in a child process, so an abort is one failed TAP line naming the file.
 * Usage: fuzz_replay FILE...
 */
#include "tap.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* runs the target on FILE's bytes; 0 when it returned, else what ended it */
static int replay(const char *file)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *f = fopen(file, "rb");
        static uint8_t buf[1 << 16];
        if (!f) _exit(3);
        size_t n = fread(buf, 1, sizeof buf, f);
        int bad = ferror(f) || !feof(f);
        fclose(f);
        if (bad) _exit(3);
        dup2(2, 1);                /* what the peers print goes to stderr, not the TAP */
        LLVMFuzzerTestOneInput(buf, n);
        _exit(0);
    }
    int ws = 0;
    if (pid < 0 || waitpid(pid, &ws, 0) != pid) return -1;
    if (WIFSIGNALED(ws)) return 128 + WTERMSIG(ws);
    return WEXITSTATUS(ws);
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);   /* as libFuzzer does before the first input */
    for (int a = 1; a < argc; a++) {
        int r = replay(argv[a]);
        ok(r == 0, "%s%s", argv[a],
           r == 3 ? ": cannot read it (or over 64 KiB)" : r ? ": the target aborted" : "");
    }
    return tap_done();
}
