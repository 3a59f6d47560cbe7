/* tests/test_workload.c: the SWF reader and the workload mapping.
 *
 * Hand-built traces are written to temporary files in /tmp (mkstemp); the
 * bundled traces are read from traces/ and the first 20 lines of the
 * MetaCentrum log from tests/data/ (tests run from the repository root and
 * read nothing outside it). Every expected number is worked out in a comment next to it;
 * counts for the real traces come from the awk commands quoted there, an
 * independent count of the same rules.
 *
 * SWF fields, for reading the literal records below:
 *   1 job  2 submit  3 wait  4 runtime  5 procs  6 cputime  7 mem(KB)
 *   8 req procs  9 req time  10 req mem  11 status  12..18 (unused)
 */
#include "app/workload.h"
#include "tests/testutil.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#define LANL "traces/lanl-cm5-techreport-sample10.swf"
#define HPC2N "traces/hpc2n-seth-first3171.swf"
#define LUBLIN "traces/lublin-256-synthetic.swf"
#define NASA "traces/NASA-iPSC-1993-3.1-cln.swf.gz"
#define META "tests/data/metacentrum-wagap-2013-head20.swf"

/* Fields 12..18 of a record, all unknown. */
#define TAIL " -1 -1 -1 -1 -1 -1 -1\n"

/* Write text to a new temporary file; returns its malloc'd path. */
static char *tmp_write(const void *data, size_t n)
{
    char tmpl[] = "/tmp/test_workload_XXXXXX";
    int fd = mkstemp(tmpl);
    ck_assert_int_ge(fd, 0);
    const char *p = data;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        ck_assert_int_gt(k, 0);
        p += k;
        n -= (size_t)k;
    }
    close(fd);
    return strdup(tmpl);
}

/* tmp_write for a NUL-terminated string. */
static char *tmp_swf(const char *text)
{
    return tmp_write(text, strlen(text));
}

/* Remove and free a path from tmp_write. */
static void tmp_remove(char *path)
{
    unlink(path);
    free(path);
}

/* A configuration with everything 0 except the neutral scales. */
static void cfg_init(config *c, cfg_cpu_demand policy)
{
    memset(c, 0, sizeof *c);
    c->workload.cpu_demand = policy;
    c->workload.memory_scale = 1;
    c->workload.load_scale = 1;
}

/* Open path, failing the test (with the message) when it cannot. */
static workload *open_ok(const char *path, const config *c, int pes)
{
    char err[CFG_ERR_MAX] = "";
    workload *w = workload_open(path, c, pes, err);
    ck_assert_msg(w != NULL, "workload_open(%s): %s", path, err);
    return w;
}

/* What drain() saw. */
typedef struct tally {
    long jobs;
    double cpu_sum, mem_sum, thread_cpu_sum;
    wl_job first, last;
    double prev_submit;
    bool sorted;
} tally;

/* Read every job of w into *t; returns the final workload_next result
 * (0 at the end, -1 on an error, whose message is left in err). */
static int drain(workload *w, tally *t, char err[CFG_ERR_MAX])
{
    memset(t, 0, sizeof *t);
    t->sorted = true;
    wl_job j;
    int rc;
    while ((rc = workload_next(w, &j, err)) == 1) {
        if (t->jobs == 0)
            t->first = j;
        else if (j.submit < t->prev_submit)
            t->sorted = false;
        t->prev_submit = j.submit;
        t->last = j;
        t->jobs++;
        t->cpu_sum += j.cpu;
        t->mem_sum += j.mem_mb;
        t->thread_cpu_sum += j.cpu * j.threads;
    }
    return rc;
}

/* Sum of the drop counters. */
static long dropped_total(const workload *w)
{
    long n = 0;
    for (int r = 0; r < WL_DROP_N; r++)
        n += workload_dropped(w, (wl_drop_reason)r);
    return n;
}

/* Read all of path and check records == jobs + drops; returns the tally. */
static tally read_all(const char *path, const config *c, int pes,
                      workload **keep)
{
    char err[CFG_ERR_MAX] = "";
    workload *w = open_ok(path, c, pes);
    tally t;
    int rc = drain(w, &t, err);
    ck_assert_msg(rc == 0, "%s: %s", path, err);
    ck_assert_int_eq(workload_records(w), t.jobs + dropped_total(w));
    ck_assert(t.sorted);
    if (keep)
        *keep = w;
    else
        workload_close(w);
    return t;
}

/* ---- the appendix sample -------------------------------------------- */

START_TEST(test_lanl_sample_mapping)
{
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w = open_ok(LANL, &c, 1024);
    char err[CFG_ERR_MAX];
    wl_job j;
    ck_assert_str_eq(workload_name(w), "lanl-cm5-techreport-sample10.swf");
    ck_assert_str_eq(workload_header(w, "MaxProcs"), "1024");
    ck_assert_str_eq(workload_header(w, "MaxNodes"), "1024");
    ck_assert_str_eq(workload_header(w, "Computer"), "Thinking Machines CM-5");
    ck_assert_str_eq(workload_header(w, "Installation"),
                     "Los Alamos National Lab (LANL)");
    for (int i = 1; i <= 10; i++) {
        ck_assert_int_eq(workload_next(w, &j, err), 1);
        ck_assert_int_eq(j.id, i);
        ck_assert_int_eq(j.line, 6 + i);    /* 6 header lines */
        if (i == 3) {
            /* "3 1906 12 626 32 516 26828 ...": the first job is at 0, so
             * submit stays 1906; 26828 KB / 1024 = 26.19921875 MB. */
            ck_assert_near(j.submit, 1906, 0);
            ck_assert_int_eq(j.threads, 32);
            ck_assert_near(j.cpu, 516, 0);
            ck_assert_near(j.mem_mb, 26.19921875, 1e-12);
            ck_assert_near(j.runtime, 626, 0);
            ck_assert_int_eq(j.status, 1);
        }
        if (i == 6)
            ck_assert_int_eq(j.status, 0);  /* field 11 = 0 (failed) */
        if (i == 9) {
            /* "9 4684 6 25 32 0 0 ...": CPU time 0 is a real job, kept. */
            ck_assert_near(j.cpu, 0, 0);
            ck_assert_near(j.mem_mb, 0, 0);
        }
    }
    ck_assert_int_eq(workload_next(w, &j, err), 0);
    ck_assert_int_eq(workload_next(w, &j, err), 0);   /* stays at the end */
    ck_assert_int_eq(workload_records(w), 10);
    ck_assert_int_eq(dropped_total(w), 0);
    workload_close(w);
}
END_TEST

START_TEST(test_lanl_auto_uses_runtime_for_zero_cputime)
{
    /* AUTO: field 6 when > 0, else field 4. Job 9 has field 6 = 0 and
     * field 4 = 25, so its demand is 25 s. Total CPU over the ten jobs:
     * 3436+489+516+484+2605+476+64+534+25+53 = 8682 s. */
    config c;
    cfg_init(&c, CPU_DEMAND_AUTO);
    tally t = read_all(LANL, &c, 1024, NULL);
    ck_assert_int_eq(t.jobs, 10);
    ck_assert_near(t.cpu_sum, 8682, 1e-9);
    /* RUNTIME: field 4 of the ten jobs: 3691+3362+626+647+3039+6253+2412
     * +986+25+1105 = 22146 s. */
    cfg_init(&c, CPU_DEMAND_RUNTIME);
    t = read_all(LANL, &c, 1024, NULL);
    ck_assert_near(t.cpu_sum, 22146, 1e-9);
    /* CPUTIME: 8682 - 25 (job 9 counts 0) = 8657 s. */
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    t = read_all(LANL, &c, 1024, NULL);
    ck_assert_near(t.cpu_sum, 8657, 1e-9);
}
END_TEST

/* ---- header ---------------------------------------------------------- */

START_TEST(test_header_continuation)
{
    char *p = tmp_swf("; Version: 2.2\n"
                      "; Computer: Test\n"
                      ";   machine with a very\n"
                      ";   long name\n"
                      "; Information: http://a.example/\n"
                      ";              http://b.example/\n"
                      ";\n"
                      ";   free text after an empty comment line\n"
                      "\n"
                      "; MaxNodes: 64\n"
                      "; Note: first\n"
                      ";  continued\n"
                      "; Note: second\n"
                      "; Empty:\n"
                      "   ; Indented: yes\n"
                      "1 0 -1 10 1 10 1024 -1 -1 -1 1" TAIL
                      "; Late: comments after data are not header\n"
                      "2 5 -1 10 1 10 1024 -1 -1 -1 1" TAIL);
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w = open_ok(p, &c, 4);
    ck_assert_str_eq(workload_header(w, "Version"), "2.2");
    /* Continuation lines are joined with one space. */
    ck_assert_str_eq(workload_header(w, "Computer"),
                     "Test machine with a very long name");
    /* "http:" is followed by '/', so it is not a key: a continuation. */
    ck_assert_str_eq(workload_header(w, "Information"),
                     "http://a.example/ http://b.example/");
    ck_assert_str_eq(workload_header(w, "MaxNodes"), "64");
    ck_assert_str_eq(workload_header(w, "maxnodes"), "64"); /* any case */
    ck_assert_ptr_null(workload_header(w, "MaxProcs"));
    ck_assert_str_eq(workload_header(w, "Note"), "first continued");
    ck_assert_str_eq(workload_header(w, "Empty"), "");
    ck_assert_str_eq(workload_header(w, "Indented"), "yes");
    tally t;
    char err[CFG_ERR_MAX];
    ck_assert_int_eq(drain(w, &t, err), 0);
    ck_assert_int_eq(t.jobs, 2);
    ck_assert_ptr_null(workload_header(w, "Late"));
    workload_close(w);
    tmp_remove(p);
}
END_TEST

START_TEST(test_lublin_maxnodes_without_maxprocs)
{
    /* awk -v pes=256 -v pol=RUNTIME -f count.awk
     *     traces/lublin-256-synthetic.swf
     *   -> 10000 records 10000 kept; with pes=128: 9727 kept, 273 too wide.
     * count.awk (the rules of workload_next, without window and status):
     *   !/^[ \t]*;/ && NF>0 { n++; if ($5 < 0.5) {np++; next}
     *     if ($5 > pes) {wide++; next}
     *     if (pol=="CPUTIME") ok = $6>=0; else if (pol=="RUNTIME") ok = $4>=0
     *     else ok = ($6>0 || $4>=0 || $6==0)
     *     if (!ok) {nocpu++; next}  kept++ }
     *   END { print n, kept, np+0, wide+0, nocpu+0 } */
    config c;
    cfg_init(&c, CPU_DEMAND_RUNTIME);
    workload *w;
    tally t = read_all(LUBLIN, &c, 256, &w);
    ck_assert_str_eq(workload_header(w, "MaxNodes"), "256");
    ck_assert_ptr_null(workload_header(w, "MaxProcs"));
    ck_assert_str_eq(workload_header(w, "Version"), "2");
    ck_assert_int_eq(t.jobs, 10000);
    ck_assert_int_eq(workload_records(w), 10000);
    /* First record "1 5094 -1 12072 16 ...": submit 5094 becomes 0. */
    ck_assert_near(t.first.submit, 0, 0);
    ck_assert_int_eq(t.first.threads, 16);
    ck_assert_near(t.first.cpu, 12072, 0);
    ck_assert_near(t.first.mem_mb, 0, 0);   /* field 7 = -1, default 0 */
    workload_close(w);

    t = read_all(LUBLIN, &c, 128, &w);
    ck_assert_int_eq(t.jobs, 9727);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_WIDE), 273);
    workload_close(w);
}
END_TEST

/* ---- number syntax and unknowns -------------------------------------- */

START_TEST(test_floats_in_integer_fields)
{
    char *p = tmp_swf(
        "1.0 10.5 -1 100.0 4.0 552.21 2048.0 4 -1 -1 1.0" TAIL
        "2e0 20 -1 100 2.6 1e2 512.5 -1 -1 -1 0.0" TAIL
        "3 30 -1 100 0.4 1 1 -1 -1 -1 1" TAIL
        "+4 40.25 -1.0 1.5e1 +1 .5 -1.0 -1 -1 -1 5.0" TAIL);
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w = open_ok(p, &c, 8);
    char err[CFG_ERR_MAX];
    wl_job j;
    /* Job 1: submit 10.5 - 10.5 = 0; 4 threads; 552.21 s; 2048/1024 = 2 MB. */
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(j.id, 1);
    ck_assert_near(j.submit, 0, 0);
    ck_assert_int_eq(j.threads, 4);
    ck_assert_near(j.cpu, 552.21, 1e-12);
    ck_assert_near(j.mem_mb, 2, 0);
    ck_assert_int_eq(j.status, 1);
    /* Job 2: id 2e0 = 2; submit 20 - 10.5 = 9.5; 2.6 procs round to 3;
     * 1e2 = 100 s; 512.5/1024 = 0.50048828125 MB; status 0.0 = 0. */
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(j.id, 2);
    ck_assert_near(j.submit, 9.5, 0);
    ck_assert_int_eq(j.threads, 3);
    ck_assert_near(j.cpu, 100, 0);
    ck_assert_near(j.mem_mb, 0.50048828125, 0);
    ck_assert_int_eq(j.status, 0);
    /* Record 3: 0.4 processors rounds to 0: dropped (no_procs).
     * Job 4: "+4", submit 40.25 - 10.5 = 29.75, runtime 1.5e1 = 15,
     * "+1" thread, ".5" = 0.5 s, mem -1.0 unknown = 0 MB, status 5. */
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(j.id, 4);
    ck_assert_near(j.submit, 29.75, 0);
    ck_assert_near(j.runtime, 15, 0);
    ck_assert_int_eq(j.threads, 1);
    ck_assert_near(j.cpu, 0.5, 0);
    ck_assert_near(j.mem_mb, 0, 0);
    ck_assert_int_eq(j.status, 5);
    ck_assert_int_eq(workload_next(w, &j, err), 0);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_NO_PROCS), 1);
    ck_assert_int_eq(workload_records(w), 4);
    workload_close(w);
    tmp_remove(p);
}
END_TEST

START_TEST(test_unknown_everywhere_allowed)
{
    /* Only fields 1, 2, 5 and 6 known. */
    char *p = tmp_swf("7 100 -1 -1 8 50 -1 -1 -1 -1 -1" TAIL);
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w = open_ok(p, &c, 8);
    char err[CFG_ERR_MAX];
    wl_job j;
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(j.id, 7);
    ck_assert_near(j.submit, 0, 0);
    ck_assert_int_eq(j.threads, 8);
    ck_assert_near(j.cpu, 50, 0);
    ck_assert_near(j.mem_mb, 0, 0);     /* unknown, default_memory 0: kept */
    ck_assert_near(j.runtime, -1, 0);
    ck_assert_int_eq(j.status, -1);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_NO_MEMORY), 0);
    workload_close(w);

    /* default_memory 64 MB, memory_scale 1.5: 64 * 1.5 = 96 MB. */
    c.workload.default_memory = 64;
    c.workload.memory_scale = 1.5;
    w = open_ok(p, &c, 8);
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_near(j.mem_mb, 96, 0);
    workload_close(w);

    /* RUNTIME: field 4 is -1, no CPU demand: dropped. AUTO: field 6 = 50. */
    cfg_init(&c, CPU_DEMAND_RUNTIME);
    w = open_ok(p, &c, 8);
    ck_assert_int_eq(workload_next(w, &j, err), 0);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_NO_CPU), 1);
    workload_close(w);
    cfg_init(&c, CPU_DEMAND_AUTO);
    w = open_ok(p, &c, 8);
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_near(j.cpu, 50, 0);
    workload_close(w);
    tmp_remove(p);
}
END_TEST

START_TEST(test_auto_policy_edges)
{
    char *p = tmp_swf("1 0 -1 30 1 0 -1 -1 -1 -1 1" TAIL   /* 6=0, 4=30: 30 */
                      "2 1 -1 -1 1 0 -1 -1 -1 -1 1" TAIL   /* 6=0, 4=-1: 0 */
                      "3 2 -1 -1 1 -1 -1 -1 -1 -1 1" TAIL  /* none: drop */
                      "4 3 -1 0 1 -1 -1 -1 -1 -1 1" TAIL   /* 6=-1, 4=0: 0 */
                      "5 4 -1 9 1 7 -1 -1 -1 -1 1" TAIL);  /* 6=7: 7 */
    config c;
    cfg_init(&c, CPU_DEMAND_AUTO);
    workload *w = open_ok(p, &c, 1);
    char err[CFG_ERR_MAX];
    wl_job j;
    const double want[][2] = {{1, 30}, {2, 0}, {4, 0}, {5, 7}};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(workload_next(w, &j, err), 1);
        ck_assert_int_eq(j.id, (long)want[i][0]);
        ck_assert_near(j.cpu, want[i][1], 0);
    }
    ck_assert_int_eq(workload_next(w, &j, err), 0);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_NO_CPU), 1);
    workload_close(w);
    tmp_remove(p);
}
END_TEST

/* ---- real traces: gzip, floats, counts ------------------------------- */

START_TEST(test_gzip_nasa)
{
    /* zcat traces/NASA-iPSC-1993-3.1-cln.swf.gz | awk '!/^;/ && NF {n++;
     *   s+=$4; t+=$4*$5} END {print n, s, t}'  -> 18239 13950781 474238015
     * zcat traces/NASA-iPSC-1993-3.1-cln.swf.gz | awk -v pes=128 '!/^;/ &&
     *   NF {n++; if ($5<0.5) np++; else if ($5>pes) w++; else if ($4<0) nc++;
     *   else k++} END {print n, k+0, np+0, w+0, nc+0}'
     *   -> 18239 18239 0 0 0 (records, kept, no_procs, too_wide, no_cpu);
     *   with pes=64: 18239 17819 0 420 0.
     * Field 6 is -1 everywhere ($6<0 in all 18239): CPUTIME drops all. */
    config c;
    cfg_init(&c, CPU_DEMAND_RUNTIME);
    workload *w;
    tally t = read_all(NASA, &c, 128, &w);
    ck_assert_int_eq(workload_records(w), 18239);
    ck_assert_int_eq(t.jobs, 18239);
    ck_assert_int_eq(dropped_total(w), 0);
    ck_assert_near(t.cpu_sum, 13950781, 0);
    ck_assert_near(t.thread_cpu_sum, 474238015, 0);
    /* First "1 0 -1 1451 128 ...", last "42264 7948936 -1 86 128 ...". */
    ck_assert_int_eq(t.first.id, 1);
    ck_assert_int_eq(t.first.threads, 128);
    ck_assert_near(t.first.cpu, 1451, 0);
    ck_assert_int_eq(t.last.id, 42264);
    ck_assert_near(t.last.submit, 7948936, 0);
    ck_assert_near(t.last.cpu, 86, 0);
    ck_assert_str_eq(workload_header(w, "MaxProcs"), "128");
    ck_assert_str_eq(workload_header(w, "Note"),
                     "There is no information on wait times - the given "
                     "submit times are actually start times");
    ck_assert_str_eq(workload_name(w), "NASA-iPSC-1993-3.1-cln.swf.gz");
    double f;
    workload_progress(w, &f);
    ck_assert_near(f, 1, 0);
    workload_close(w);

    t = read_all(NASA, &c, 64, &w);
    ck_assert_int_eq(t.jobs, 17819);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_WIDE), 420);
    workload_close(w);

    cfg_init(&c, CPU_DEMAND_CPUTIME);
    t = read_all(NASA, &c, 128, &w);
    ck_assert_int_eq(t.jobs, 0);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_NO_CPU), 18239);
    workload_close(w);

    /* Field 11 is -1 in all 18239 records (awk '{print $11}' | sort |
     * uniq -c): excluding status -1 drops them all, as "status". */
    cfg_init(&c, CPU_DEMAND_RUNTIME);
    c.workload.exclude_status[0] = -1;
    c.workload.n_exclude_status = 1;
    t = read_all(NASA, &c, 128, &w);
    ck_assert_int_eq(t.jobs, 0);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_STATUS), 18239);
    workload_close(w);
}
END_TEST

START_TEST(test_hpc2n_counts)
{
    /* 3194 lines: 23 header lines, 3170 records and a last line holding one
     * space (blank). count.awk (see test_lublin) with pes=240:
     *   CPUTIME 2647 kept, 523 no_cpu; RUNTIME 3145 kept, 25 no_cpu;
     *   AUTO 3170 kept.
     * awk '!/^;/ && NF && $6>0 {s+=$6} !/^;/ && NF && !($6>0) && $4>=0
     *   {s+=$4} END {printf "%.2f", s}'  -> 30463960.07 (AUTO CPU total)
     * awk '!/^;/ && NF && $7>=0 {n++; s+=$7} END {print n, s}'
     *   -> 1048 180596736: 180596736 KB / 1024 = 176364 MB in total. */
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w;
    tally t = read_all(HPC2N, &c, 240, &w);
    ck_assert_int_eq(workload_records(w), 3170);
    ck_assert_int_eq(t.jobs, 2647);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_NO_CPU), 523);
    workload_close(w);

    cfg_init(&c, CPU_DEMAND_RUNTIME);
    t = read_all(HPC2N, &c, 240, &w);
    ck_assert_int_eq(t.jobs, 3145);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_NO_CPU), 25);
    workload_close(w);

    /* The 25 records with run time -1 are the 25 with status -1
     * (awk '$11==-1 && $4==-1' counts 25): excluded first, as "status". */
    c.workload.exclude_status[0] = -1;
    c.workload.n_exclude_status = 1;
    t = read_all(HPC2N, &c, 240, &w);
    ck_assert_int_eq(t.jobs, 3145);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_STATUS), 25);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_NO_CPU), 0);
    workload_close(w);

    cfg_init(&c, CPU_DEMAND_AUTO);
    t = read_all(HPC2N, &c, 240, &w);
    ck_assert_int_eq(t.jobs, 3170);
    ck_assert_near(t.cpu_sum, 30463960.07, 1e-4);
    ck_assert_near(t.mem_sum, 176364, 1e-6);
    workload_close(w);
}
END_TEST

START_TEST(test_hpc2n_float_cputime)
{
    /* "12 342343 5 553 40 552.21 -1 40 43200 ...": 23 header lines, then
     * jobs 1, 2, 3, 4, 10, 11 on lines 24..29, so job 12 is the 7th record,
     * on line 30. The first job is at 0: submit stays 342343. */
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w = open_ok(HPC2N, &c, 240);
    char err[CFG_ERR_MAX];
    wl_job j;
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(j.id, 12);
    ck_assert_int_eq(j.line, 30);
    ck_assert_near(j.cpu, 552.21, 1e-12);
    ck_assert_near(j.submit, 342343, 0);
    ck_assert_int_eq(j.threads, 40);
    workload_close(w);
}
END_TEST

/* ---- standard input -------------------------------------------------- */

/* Run fn with fd as standard input, then restore the old one. */
static void with_stdin(int fd, void (*fn)(void))
{
    int saved = dup(STDIN_FILENO);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_ge(dup2(fd, STDIN_FILENO), 0);
    close(fd);
    fn();
    ck_assert_int_ge(dup2(saved, STDIN_FILENO), 0);
    close(saved);
}

/* The LANL sample on standard input (a regular file). */
static void stdin_lanl(void)
{
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w = open_ok("-", &c, 1024);
    ck_assert_str_eq(workload_name(w), "stdin");
    ck_assert_str_eq(workload_header(w, "MaxProcs"), "1024");
    tally t;
    char err[CFG_ERR_MAX];
    ck_assert_int_eq(drain(w, &t, err), 0);
    ck_assert_int_eq(t.jobs, 10);
    /* 8657 s: see test_lanl_auto_uses_runtime_for_zero_cputime. */
    ck_assert_near(t.cpu_sum, 8657, 1e-9);
    double f;
    workload_progress(w, &f);
    ck_assert_near(f, 1, 0);
    workload_close(w);
}

START_TEST(test_stdin_regular_file)
{
    int fd = open(LANL, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    with_stdin(fd, stdin_lanl);
    /* Closing the workload did not close standard input. */
    ck_assert_int_ne(fcntl(STDIN_FILENO, F_GETFD), -1);
}
END_TEST

/* The NASA gzip trace through a pipe on standard input. */
static void stdin_nasa_pipe(void)
{
    config c;
    cfg_init(&c, CPU_DEMAND_RUNTIME);
    workload *w = open_ok("-", &c, 128);
    double f = -1;
    workload_progress(w, &f);
    ck_assert_near(f, 0, 0);             /* pipe: size unknown */
    tally t;
    char err[CFG_ERR_MAX];
    ck_assert_msg(drain(w, &t, err) == 0, "%s", err);
    ck_assert_int_eq(t.jobs, 18239);     /* as in test_gzip_nasa */
    ck_assert_near(t.cpu_sum, 13950781, 0);
    workload_close(w);
}

START_TEST(test_stdin_gzip_pipe)
{
    int pfd[2];
    ck_assert_int_eq(pipe(pfd), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {             /* writer: copy the file into the pipe */
        close(pfd[0]);
        int in = open(NASA, O_RDONLY);
        char b[8192];
        ssize_t n;
        while (in >= 0 && (n = read(in, b, sizeof b)) > 0)
            if (write(pfd[1], b, (size_t)n) != n)
                _exit(1);
        _exit(in >= 0 ? 0 : 1);
    }
    close(pfd[1]);
    with_stdin(pfd[0], stdin_nasa_pipe);
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}
END_TEST

/* ---- malformed lines ------------------------------------------------- */

START_TEST(test_metacentrum_rejected_at_line_1)
{
    /* Line 1 has 21 fields: 18 numbers, then "{1241,1241,...}", "q_1d" and
     * "1:ppn=64:...". */
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w = open_ok(META, &c, 1024);
    char err[CFG_ERR_MAX] = "";
    wl_job j;
    ck_assert_int_eq(workload_next(w, &j, err), -1);
    ck_assert_str_eq(err, META ":1: expected 18 numeric fields, found 21 "
                          "(field 19 is \"{1241,1241,1...\")");
    ck_assert_ptr_null(strchr(err, '\n'));
    ck_assert_int_eq(workload_records(w), 0);
    workload_close(w);

    /* Lenient: awk '!/^;/ && NF {print NF}' | sort | uniq -c -> 20 21:
     * every one of the 20 records is skipped as malformed. */
    c.workload.lenient = true;
    w = open_ok(META, &c, 1024);
    tally t;
    ck_assert_int_eq(drain(w, &t, err), 0);
    ck_assert_int_eq(t.jobs, 0);
    ck_assert_int_eq(workload_records(w), 20);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_MALFORMED), 20);
    workload_close(w);
}
END_TEST

START_TEST(test_malformed_messages_and_lenient)
{
    char *p = tmp_swf(
        "; MaxProcs: 8\n"
        "1 0 -1 10 1 10 -1 -1 -1 -1 1" TAIL                   /* 2: ok */
        "2 1 -1 10 1 10 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1\n"    /* 3: 17 */
        "3 2 -1 10 1 10 -1 -1 -1 -1 1" TAIL                   /* 4: ok */
        "4 3 -1 abc 1 10 -1 -1 -1 -1 1" TAIL                  /* 5: text */
        "5 4 -1 10 1 10 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1 7\n" /* 6: 19 */
        "6 -1 -1 10 1 10 -1 -1 -1 -1 1" TAIL                  /* 7: submit */
        "7 5 -1 10 1 nan -1 -1 -1 -1 1" TAIL                  /* 8: nan */
        "8 6 -1 10 1 0x10 -1 -1 -1 -1 1" TAIL                 /* 9: hex */
        "9 7 -1 10 1 10 -1 -1 -1 -1 1" TAIL);                 /* 10: ok */
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w = open_ok(p, &c, 8);
    char err[CFG_ERR_MAX];
    char want[CFG_ERR_MAX + 64];
    wl_job j;
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(workload_next(w, &j, err), -1);
    snprintf(want, sizeof want,
             "%s:3: expected 18 numeric fields, found 17", p);
    ck_assert_str_eq(err, want);
    workload_close(w);

    /* Each bad line alone, strict. */
    struct { const char *line; const char *msg; } bad[] = {
        {"4 3 -1 abc 1 10 -1 -1 -1 -1 1" TAIL,
         ":1: field 4 (run time) is \"abc\", expected a number"},
        {"5 4 -1 10 1 10 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1 7\n",
         ":1: expected 18 numeric fields, found 19 (field 19 is \"7\")"},
        {"6 -1 -1 10 1 10 -1 -1 -1 -1 1" TAIL,
         ":1: field 2 (submit time) is -1: a job needs a known submit time"},
        {"7 5 -1 10 1 nan -1 -1 -1 -1 1" TAIL,
         ":1: field 6 (average CPU time) is \"nan\", expected a number"},
        {"8 6 -1 10 1 0x10 -1 -1 -1 -1 1" TAIL,
         ":1: field 6 (average CPU time) is \"0x10\", expected a number"},
        {"1 2 3\n", ":1: expected 18 numeric fields, found 3"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *q = tmp_swf(bad[i].line);
        w = open_ok(q, &c, 8);
        ck_assert_int_eq(workload_next(w, &j, err), -1);
        snprintf(want, sizeof want, "%s%s", q, bad[i].msg);
        ck_assert_msg(strncmp(err, want, strlen(want)) == 0,
                      "got \"%s\", want \"%s...\"", err, want);
        ck_assert_ptr_null(strchr(err, '\n'));
        workload_close(w);
        tmp_remove(q);
    }

    /* Lenient: lines 3, 5, 6, 7, 8 and 9 skipped (6 malformed); jobs 1, 3
     * and 9 kept; 9 records in all. */
    c.workload.lenient = true;
    w = open_ok(p, &c, 8);
    tally t;
    ck_assert_int_eq(drain(w, &t, err), 0);
    ck_assert_int_eq(t.jobs, 3);
    ck_assert_int_eq(t.first.id, 1);
    ck_assert_int_eq(t.last.id, 9);
    ck_assert_int_eq(t.last.line, 10);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_MALFORMED), 6);
    ck_assert_int_eq(workload_records(w), 9);
    workload_close(w);
    tmp_remove(p);
}
END_TEST

START_TEST(test_submit_order)
{
    /* Line 3 (submit 50) comes after line 2 (submit 100): an error, never a
     * silent reorder, even under lenient. Equal times are fine; a dropped
     * record out of order (line 5, 4 procs on a 2-PE machine) is not
     * checked. */
    char *p = tmp_swf("; MaxProcs: 2\n"
                      "1 100 -1 10 1 10 -1 -1 -1 -1 1" TAIL
                      "2 100 -1 10 1 10 -1 -1 -1 -1 1" TAIL
                      "3 50 -1 10 1 10 -1 -1 -1 -1 1" TAIL);
    char *q = tmp_swf("1 100 -1 10 1 10 -1 -1 -1 -1 1" TAIL
                      "2 100 -1 10 1 10 -1 -1 -1 -1 1" TAIL
                      "3 90 -1 10 4 10 -1 -1 -1 -1 1" TAIL
                      "4 101 -1 10 1 10 -1 -1 -1 -1 1" TAIL);
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    for (int lenient = 0; lenient <= 1; lenient++) {
        c.workload.lenient = lenient;
        workload *w = open_ok(p, &c, 2);
        char err[CFG_ERR_MAX], want[CFG_ERR_MAX + 64];
        wl_job j;
        ck_assert_int_eq(workload_next(w, &j, err), 1);
        ck_assert_int_eq(workload_next(w, &j, err), 1);
        ck_assert_int_eq(workload_next(w, &j, err), -1);
        snprintf(want, sizeof want, "%s:4: submit time 50 is earlier than "
                 "100 of the job on line 3", p);
        ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "got \"%s\"", err);
        workload_close(w);
    }
    c.workload.lenient = false;
    workload *w;
    tally t = read_all(q, &c, 2, &w);
    ck_assert_int_eq(t.jobs, 3);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_WIDE), 1);
    ck_assert_near(t.last.submit, 1, 0);    /* 101 - 100 */
    workload_close(w);
    tmp_remove(p);
    tmp_remove(q);
}
END_TEST

/* ---- policies -------------------------------------------------------- */

START_TEST(test_each_drop_reason)
{
    /* 16 PEs, CPUTIME, exclude status 5, window [100, 1000], max_jobs 2.
     * Reading stops once 2 jobs are kept: lines 10 and 11 are not read. */
    char *p = tmp_swf(
        "1 50 -1 9 1 10 -1 -1 -1 -1 1" TAIL      /* submit < 100: window */
        "2 100 -1 9 0 10 -1 -1 -1 -1 1" TAIL     /* 0 procs: no_procs */
        "3 110 -1 9 -1 10 -1 -1 -1 -1 1" TAIL    /* -1 procs: no_procs */
        "4 120 -1 9 32 10 -1 -1 -1 -1 1" TAIL    /* 32 > 16: too_wide */
        "5 130 -1 9 4 -1 -1 -1 -1 -1 1" TAIL     /* cpu -1: no_cpu */
        "6 140 -1 9 4 5 -1 -1 -1 -1 5" TAIL      /* status 5: status */
        "11 5 -1 9 2 3 -1 -1 -1 -1 5" TAIL       /* status first: status */
        "7 150 -1 9 4 0 -1 -1 -1 -1 1" TAIL      /* kept, cpu 0, t=0 */
        "8 160 -1 9 16 7 -1 -1 -1 -1 1" TAIL     /* kept, 16 = all PEs, t=10 */
        "9 170 -1 9 2 3 -1 -1 -1 -1 1" TAIL      /* 3rd usable: not read */
        "10 2000 -1 9 2 3 -1 -1 -1 -1 1" TAIL);  /* not read */
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    c.workload.exclude_status[0] = 5;
    c.workload.n_exclude_status = 1;
    c.workload.submit_min = 100;
    c.workload.submit_max = 1000;
    c.workload.max_jobs = 2;
    workload *w = open_ok(p, &c, 16);
    char err[CFG_ERR_MAX];
    wl_job j;
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(j.id, 7);
    ck_assert_near(j.submit, 0, 0);
    ck_assert_near(j.cpu, 0, 0);
    ck_assert_int_eq(workload_records(w), 8);    /* 7 dropped + job 7 */
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(j.id, 8);
    ck_assert_near(j.submit, 10, 0);
    ck_assert_int_eq(j.threads, 16);
    ck_assert_int_eq(workload_stopped_at(w), 0);
    ck_assert_int_eq(workload_next(w, &j, err), 0);
    ck_assert_int_eq(workload_stopped_at(w), 9); /* job 8's line */
    ck_assert_int_eq(workload_next(w, &j, err), 0);
    /* window: job 1 = 1; no_procs: 2, 3 = 2; too_wide: 4 = 1; no_cpu: 5 =
     * 1; status: 6, 11 = 2; 1+2+1+1+2 + 2 kept = 9 read. */
    ck_assert_int_eq(workload_dropped(w, WL_DROP_WINDOW), 1);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_NO_PROCS), 2);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_WIDE), 1);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_NO_CPU), 1);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_STATUS), 2);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_MALFORMED), 0);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_NO_MEMORY), 0);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_N), 0);
    ck_assert_int_eq(workload_records(w), 9);
    workload_close(w);
    tmp_remove(p);
}
END_TEST

START_TEST(test_scales)
{
    /* memory_scale 2, load_scale 4, default_memory 10 MB:
     *   job 1: submit 1000 -> 0; 3072 KB / 1024 * 2 = 6 MB
     *   job 2: submit (1400 - 1000) / 4 = 100; unknown: 10 * 2 = 20 MB
     *   job 3: submit (2200 - 1000) / 4 = 300; 1 KB / 1024 * 2
     *          = 0.001953125 MB
     * The CPU demand is not scaled (30 s each). */
    char *p = tmp_swf("1 1000 -1 60 2 30 3072 -1 -1 -1 1" TAIL
                      "2 1400 -1 60 2 30 -1 -1 -1 -1 1" TAIL
                      "3 2200 -1 60 2 30 1 -1 -1 -1 1" TAIL);
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    c.workload.memory_scale = 2;
    c.workload.load_scale = 4;
    c.workload.default_memory = 10;
    workload *w = open_ok(p, &c, 2);
    char err[CFG_ERR_MAX];
    wl_job j;
    const double want[3][2] = {{0, 6}, {100, 20}, {300, 0.001953125}};
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(workload_next(w, &j, err), 1);
        ck_assert_near(j.submit, want[i][0], 0);
        ck_assert_near(j.mem_mb, want[i][1], 0);
        ck_assert_near(j.cpu, 30, 0);
    }
    workload_close(w);

    /* load_scale 0.5 doubles the gaps: job 3 at 1200 / 0.5 = 2400. */
    c.workload.load_scale = 0.5;
    tally t = read_all(p, &c, 2, NULL);
    ck_assert_near(t.last.submit, 2400, 0);
    tmp_remove(p);
}
END_TEST

/* workload.window W with max_jobs M keeps the jobs W*M+1 .. (W+1)*M of
 * those that pass every other filter. The LANL sample's widths are 8 2 32
 * 32 8 2 2 2 32 8 (jobs 1..10): on 16 PEs jobs 3, 4 and 9 are too wide, so
 * the jobs that pass are 1 2 5 6 7 8 10 and the windows of M = 2 are
 * {1,2} {5,6} {7,8} {10}. */
START_TEST(test_window)
{
    config c;
    workload *w;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    c.workload.max_jobs = 2;
    c.workload.window = 1;
    tally t = read_all(LANL, &c, 16, &w);
    ck_assert_int_eq(t.jobs, 2);
    ck_assert_int_eq(t.first.id, 5);
    ck_assert_int_eq(t.last.id, 6);
    /* Relative to job 5 (submit 4009): job 6 (4031) arrives at 22. */
    ck_assert_near(t.first.submit, 0, 0);
    ck_assert_near(t.last.submit, 22, 0);
    /* Reading stops once max_jobs jobs are kept (issue 11): records 1-6
     * are read, 1 and 2 are before the window, 3 and 4 too wide. */
    ck_assert_int_eq(workload_records(w), 6);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_WIDE), 2);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_WINDOW), 2);
    workload_close(w);

    c.workload.window = 3;          /* the last window is short: job 10 */
    t = read_all(LANL, &c, 16, &w);
    ck_assert_int_eq(t.jobs, 1);
    ck_assert_int_eq(t.first.id, 10);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_WINDOW), 6);
    workload_close(w);

    c.workload.window = 4;          /* beyond the trace: nothing */
    t = read_all(LANL, &c, 16, &w);
    ck_assert_int_eq(t.jobs, 0);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_WINDOW), 7);
    workload_close(w);

    /* With submit_min 4000 the windows start at job 5: {5,6} {7,8} {10}. */
    c.workload.submit_min = 4000;
    c.workload.window = 1;
    t = read_all(LANL, &c, 16, &w);
    ck_assert_int_eq(t.jobs, 2);
    ck_assert_int_eq(t.first.id, 7);
    ck_assert_int_eq(t.last.id, 8);
    workload_close(w);

    /* A window without max_jobs is refused. */
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    c.workload.window = 1;
    char err[CFG_ERR_MAX] = "";
    ck_assert_ptr_null(workload_open(LANL, &c, 16, err));
    ck_assert_ptr_nonnull(strstr(err, "max_jobs"));
    config_defaults(&c);
    ck_assert_int_eq(config_validate(&c, err), 0);
    c.workload.window = 1;
    ck_assert_int_ne(config_validate(&c, err), 0);
    ck_assert_ptr_nonnull(strstr(err, "window"));
}
END_TEST

START_TEST(test_max_jobs_and_submit_window)
{
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    c.workload.max_jobs = 3;
    workload *w;
    /* The first 3 of the 10 LANL jobs; the other 7 are not read. */
    tally t = read_all(LANL, &c, 1024, &w);
    ck_assert_int_eq(t.jobs, 3);
    ck_assert_int_eq(t.last.id, 3);
    ck_assert_int_eq(workload_records(w), 3);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_WINDOW), 0);
    ck_assert_int_gt(workload_stopped_at(w), 0);
    workload_close(w);

    /* Window [4000, 4500] on the LANL submits 0 465 1906 3571 4009 4031
     * 4346 4393 4684 5705: jobs 5..8 kept, 6 outside. Relative to job 5
     * (4009): job 8 arrives at 4393 - 4009 = 384. */
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    c.workload.submit_min = 4000;
    c.workload.submit_max = 4500;
    t = read_all(LANL, &c, 1024, &w);
    ck_assert_int_eq(t.jobs, 4);
    ck_assert_int_eq(t.first.id, 5);
    ck_assert_near(t.first.submit, 0, 0);
    ck_assert_int_eq(t.last.id, 8);
    ck_assert_near(t.last.submit, 384, 0);
    /* Jobs 1-4 before the window, job 9 (4684) after it: reading stops
     * there, job 10 is not read. */
    ck_assert_int_eq(workload_dropped(w, WL_DROP_WINDOW), 5);
    ck_assert_int_eq(workload_records(w), 9);
    ck_assert_int_gt(workload_stopped_at(w), 0);
    workload_close(w);

    /* submit_max 0 means no upper bound: all 10. */
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    t = read_all(LANL, &c, 1024, NULL);
    ck_assert_int_eq(t.jobs, 10);
}
END_TEST

/* ---- files, lines, progress ------------------------------------------ */

START_TEST(test_open_errors)
{
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    char err[CFG_ERR_MAX] = "";
    ck_assert_ptr_null(
        workload_open("/tmp/no-such-dir-pnrsim/x.swf", &c, 4, err));
    ck_assert_str_eq(err, "/tmp/no-such-dir-pnrsim/x.swf: cannot open: "
                          "No such file or directory");
    ck_assert_ptr_null(workload_open("/tmp", &c, 4, err));
    ck_assert_str_eq(err, "/tmp: cannot open: Is a directory");
    c.workload.load_scale = 0;
    ck_assert_ptr_null(workload_open(LANL, &c, 4, err));
    ck_assert_ptr_nonnull(strstr(err, "load_scale must be > 0"));
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    ck_assert_ptr_null(workload_open(LANL, &c, 0, err));
    ck_assert_ptr_nonnull(strstr(err, "at least 1 PE"));
    c.workload.memory_scale = -1;
    ck_assert_ptr_null(workload_open(LANL, &c, 4, err));
    ck_assert_ptr_nonnull(strstr(err, "memory_scale"));
    workload_close(NULL);
}
END_TEST

START_TEST(test_long_lines)
{
    /* A 200,000-character comment in the header and another after the
     * data; a record whose fields are separated by 300 spaces each (about
     * 5,400 characters) and whose field 5 is 2,000 characters long
     * ("000...0004" = 4). */
    size_t big = 200000;
    char *text = malloc(2 * big + 20000);
    char *s = text;
    s += sprintf(s, "; MaxProcs: 8\n; Long: ");
    memset(s, 'x', big);
    s += big;
    *s++ = '\n';
    const char *fields[SWF_FIELDS] = {"1", "0", "-1", "10", NULL, "5", "2048",
                                      "-1", "-1", "-1", "1", "-1", "-1", "-1",
                                      "-1", "-1", "-1", "-1"};
    for (int i = 0; i < SWF_FIELDS; i++) {
        memset(s, ' ', 300);
        s += 300;
        if (fields[i]) {
            s += sprintf(s, "%s", fields[i]);
        } else {
            memset(s, '0', 1999);
            s += 1999;
            *s++ = '4';
        }
    }
    *s++ = '\n';
    *s++ = ';';
    memset(s, 'y', big);
    s += big;
    s += sprintf(s, "\n2 1 -1 10 8 5 -1 -1 -1 -1 1" TAIL);
    char *p = tmp_write(text, (size_t)(s - text));
    free(text);

    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w = open_ok(p, &c, 8);
    ck_assert_int_eq(strlen(workload_header(w, "Long")), big);
    char err[CFG_ERR_MAX];
    wl_job j;
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(j.threads, 4);
    ck_assert_near(j.mem_mb, 2, 0);
    ck_assert_int_eq(j.line, 3);
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(j.id, 2);
    ck_assert_int_eq(j.line, 5);
    ck_assert_int_eq(workload_next(w, &j, err), 0);
    workload_close(w);
    tmp_remove(p);
}
END_TEST

START_TEST(test_line_endings_and_empty_files)
{
    /* CRLF line ends, a tab separator, a trailing comment on a data line,
     * a blank line of spaces, and no newline after the last record: 3 jobs,
     * the last on line 6. */
    char *p = tmp_swf("; MaxProcs: 4\r\n\r\n"
                      "1 0 -1 10 1 10 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\r\n"
                      "2\t3 -1 10 1 10 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1"
                      " ; ok\n"
                      "   \n"
                      "3 4 -1 10 1 10 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1");
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    tally t = read_all(p, &c, 4, NULL);
    ck_assert_int_eq(t.jobs, 3);
    ck_assert_int_eq(t.last.id, 3);
    ck_assert_int_eq(t.last.line, 6);
    ck_assert_near(t.last.submit, 4, 0);
    tmp_remove(p);

    /* Empty file, and a file with only a header: no jobs, no error. */
    const char *texts[] = {"", "; MaxProcs: 4\n;\n\n"};
    for (int i = 0; i < 2; i++) {
        p = tmp_swf(texts[i]);
        workload *w;
        t = read_all(p, &c, 4, &w);
        ck_assert_int_eq(t.jobs, 0);
        ck_assert_int_eq(workload_records(w), 0);
        double f;
        workload_progress(w, &f);
        ck_assert_near(f, 1, 0);
        workload_close(w);
        tmp_remove(p);
    }
}
END_TEST

START_TEST(test_progress)
{
    /* The HPC2N file is 292,761 bytes; progress is the fraction consumed:
     * never decreasing, below 1 halfway, exactly 1 at the end. */
    config c;
    cfg_init(&c, CPU_DEMAND_AUTO);
    workload *w = open_ok(HPC2N, &c, 240);
    char err[CFG_ERR_MAX];
    wl_job j;
    double prev = 0, f = -1, half = -1;
    long n = 0;
    while (workload_next(w, &j, err) == 1) {
        workload_progress(w, &f);
        ck_assert(f >= prev && f <= 1);
        prev = f;
        if (++n == 1585)
            half = f;
    }
    ck_assert(half > 0.2 && half < 0.9);
    workload_progress(w, &f);
    ck_assert_near(f, 1, 0);
    workload_close(w);
}
END_TEST

START_TEST(test_truncated_gzip)
{
    /* The first 100,000 bytes of the NASA file: zcat reports "unexpected
     * end of file" after 8,709 records. The reader must end in an error
     * naming the file, not quietly at the cut. */
    FILE *in = fopen(NASA, "rb");
    ck_assert_ptr_nonnull(in);
    char *buf = malloc(100000);
    ck_assert_int_eq(fread(buf, 1, 100000, in), 100000);
    fclose(in);
    char *p = tmp_write(buf, 100000);
    free(buf);
    config c;
    cfg_init(&c, CPU_DEMAND_RUNTIME);
    workload *w = open_ok(p, &c, 128);
    tally t;
    char err[CFG_ERR_MAX] = "";
    ck_assert_int_eq(drain(w, &t, err), -1);
    ck_assert_int_le(t.jobs, 8709);
    ck_assert_msg(strncmp(err, p, strlen(p)) == 0 && strstr(err, "read error"),
                  "%s", err);
    workload_close(w);
    tmp_remove(p);
}
END_TEST

START_TEST(test_gzip_written_here)
{
    /* A small trace compressed with zlib here, named .gz: same jobs as
     * plain text (2 jobs, 3 + 4 = 7 s of CPU). */
    char tmpl[] = "/tmp/test_workload_XXXXXX.swf.gz";
    int fd = mkstemps(tmpl, 7);
    ck_assert_int_ge(fd, 0);
    gzFile gz = gzdopen(fd, "wb");
    ck_assert_ptr_nonnull(gz);
    gzputs(gz, "; MaxProcs: 2\n1 0 -1 9 2 3 -1 -1 -1 -1 1" TAIL
               "2 7 -1 9 2 4 -1 -1 -1 -1 1" TAIL);
    ck_assert_int_eq(gzclose(gz), Z_OK);
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w;
    tally t = read_all(tmpl, &c, 2, &w);
    ck_assert_int_eq(t.jobs, 2);
    ck_assert_near(t.cpu_sum, 7, 0);
    ck_assert_str_eq(workload_header(w, "MaxProcs"), "2");
    ck_assert_ptr_nonnull(strstr(workload_name(w), ".swf.gz"));
    ck_assert_ptr_null(strchr(workload_name(w), '/'));
    workload_close(w);
    unlink(tmpl);
}
END_TEST

START_TEST(test_drop_names)
{
    const char *want[WL_DROP_N] = {"malformed", "too_wide", "no_procs",
                                   "no_cpu", "no_memory", "status", "window"};
    for (int i = 0; i < WL_DROP_N; i++)
        ck_assert_str_eq(workload_drop_name((wl_drop_reason)i), want[i]);
}
END_TEST

/* ---- hostile input (issue 12) ---------------------------------------- */

START_TEST(test_header_trailing_blanks)
{
    /* `Key:` followed only by blanks (a space, a tab, both, CR): the value
     * is empty. The blanks once made the value's length -1 (heap
     * corruption); a continuation line still joins the empty value. */
    char *p = tmp_swf("; Note: \n"
                      "; Computer:\t\n"
                      "; Queues: \t \r\n"
                      "; Partitions:  \n"
                      ";   two\n"
                      "1 0 -1 10 1 10 1024 -1 -1 -1 1" TAIL);
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w = open_ok(p, &c, 4);
    ck_assert_str_eq(workload_header(w, "Note"), "");
    ck_assert_str_eq(workload_header(w, "Computer"), "");
    ck_assert_str_eq(workload_header(w, "Queues"), "");
    ck_assert_str_eq(workload_header(w, "Partitions"), "two");
    tally t;
    char err[CFG_ERR_MAX];
    ck_assert_int_eq(drain(w, &t, err), 0);
    ck_assert_int_eq(t.jobs, 1);
    workload_close(w);
    tmp_remove(p);
}
END_TEST

/* Read the n bytes at text with lenient off and on: strict must fail with
 * "<file>:<line>: NUL byte" naming bad_line after ok_before jobs; lenient
 * must return jobs (with the last job on last_line) and count malformed
 * malformed records out of records read. */
static void nul_case(const char *text, size_t n, long bad_line, long ok_before,
                     long jobs, long last_line, long malformed, long records)
{
    char *p = tmp_write(text, n);
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    char err[CFG_ERR_MAX] = "";
    tally t;
    /* Strict: the error may come at open (header) or while reading. */
    workload *w = workload_open(p, &c, 8, err);
    int rc = w ? drain(w, &t, err) : -1;
    ck_assert_int_eq(rc, -1);
    if (w)
        ck_assert_int_eq(t.jobs, ok_before);
    char want[64];
    snprintf(want, sizeof want, ":%ld: NUL byte", bad_line);
    ck_assert_msg(strncmp(err, p, strlen(p)) == 0 && strstr(err, want),
                  "expected \"%s\" in: %s", want, err);
    ck_assert_ptr_null(strchr(err, '\n'));
    workload_close(w);

    c.workload.lenient = true;
    w = open_ok(p, &c, 8);
    ck_assert_int_eq(drain(w, &t, err), 0);
    ck_assert_int_eq(t.jobs, jobs);
    ck_assert_int_eq(t.last.line, last_line);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_MALFORMED), malformed);
    ck_assert_int_eq(workload_records(w), records);
    workload_close(w);
    tmp_remove(p);
}

START_TEST(test_nul_bytes)
{
    /* A NUL inside a record: the record (line 2) was silently dropped. */
    static const char a[] = "1 0 -1 10 1 10 -1 -1 -1 -1 1" TAIL
                            "2 1 -1 10 1\0 10 -1 -1 -1 -1 1" TAIL
                            "3 2 -1 10 1 10 -1 -1 -1 -1 1" TAIL;
    nul_case(a, sizeof a - 1, 2, 1, 2, 3, 1, 3);
    /* A NUL after 18 good fields hid the text behind it (a 19th field). */
    static const char b[] = "1 0 -1 10 1 10 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1"
                            "\0 7\n"
                            "2 1 -1 10 1 10 -1 -1 -1 -1 1" TAIL;
    nul_case(b, sizeof b - 1, 1, 0, 1, 2, 1, 2);
    /* A line that is only a NUL read as an empty line. */
    static const char d[] = "1 0 -1 10 1 10 -1 -1 -1 -1 1" TAIL "\0\n"
                            "2 1 -1 10 1 10 -1 -1 -1 -1 1" TAIL;
    nul_case(d, sizeof d - 1, 2, 1, 2, 3, 1, 3);
    /* ... also as the first line, where blank lines are skipped. */
    static const char d1[] = "\0\n1 0 -1 10 1 10 -1 -1 -1 -1 1" TAIL;
    nul_case(d1, sizeof d1 - 1, 1, 0, 1, 2, 1, 2);
    /* A NUL in a header line: an error naming line 2; under lenient the
     * line counts as malformed and the rest of the header is read. */
    static const char e[] = "; MaxProcs: 8\n; Note: a\0b\n; MaxNodes: 4\n"
                            "1 0 -1 10 1 10 -1 -1 -1 -1 1" TAIL;
    nul_case(e, sizeof e - 1, 2, 0, 1, 4, 1, 2);
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    c.workload.lenient = true;
    char *p = tmp_write(e, sizeof e - 1);
    workload *w = open_ok(p, &c, 8);
    ck_assert_str_eq(workload_header(w, "MaxNodes"), "4");
    ck_assert_ptr_null(workload_header(w, "Note"));
    workload_close(w);
    tmp_remove(p);
}
END_TEST

START_TEST(test_nul_in_long_line)
{
    /* Line 2 is 6,000 bytes long with a NUL at byte 100, and what follows
     * the NUL looks like a record: it once became an invented record on a
     * line 3 of its own, and every later line number moved by one. The
     * real line 3 must be job 3 on line 3. */
    char *text = malloc(20000);
    char *s = text;
    s += sprintf(s, "1 0 -1 10 1 10 -1 -1 -1 -1 1" TAIL);
    char *l2 = s;
    memset(s, ' ', 100);
    s += 100;
    *s++ = '\0';
    memset(s, ' ', 6000 - 100 - 1 - 60);
    s += 6000 - 100 - 1 - 60;
    s += sprintf(s, "9 1 -1 10 1 10 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1");
    memset(s, ' ', (size_t)(6000 - (s - l2)));
    s = l2 + 6000;
    *s++ = '\n';
    s += sprintf(s, "3 2 -1 10 1 10 -1 -1 -1 -1 1" TAIL);
    nul_case(text, (size_t)(s - text), 2, 1, 2, 3, 1, 3);

    /* Without the NUL, the same 6,000-byte line is one record (job 9) on
     * line 2, then job 3 on line 3: lines longer than any read buffer are
     * never split. */
    l2[100] = ' ';
    char *p = tmp_write(text, (size_t)(s - text));
    free(text);
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w = open_ok(p, &c, 8);
    char err[CFG_ERR_MAX];
    wl_job j;
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(j.line, 1);
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(j.id, 9);
    ck_assert_int_eq(j.line, 2);
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(j.id, 3);
    ck_assert_int_eq(j.line, 3);
    ck_assert_int_eq(workload_next(w, &j, err), 0);
    ck_assert_int_eq(workload_records(w), 3);
    workload_close(w);
    tmp_remove(p);
}
END_TEST

START_TEST(test_utf8_bom)
{
    /* A UTF-8 byte order mark before a header line and before a data line
     * (no header): both read as if it were absent. */
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    char *p = tmp_swf("\xEF\xBB\xBF; MaxProcs: 8\n"
                      "1 0 -1 10 1 10 -1 -1 -1 -1 1" TAIL);
    workload *w;
    tally t = read_all(p, &c, 8, &w);
    ck_assert_str_eq(workload_header(w, "MaxProcs"), "8");
    ck_assert_int_eq(t.jobs, 1);
    workload_close(w);
    tmp_remove(p);
    p = tmp_swf("\xEF\xBB\xBF" "7 0 -1 10 1 10 -1 -1 -1 -1 1" TAIL
                "8 1 -1 10 1 10 -1 -1 -1 -1 1" TAIL);
    t = read_all(p, &c, 8, NULL);
    ck_assert_int_eq(t.jobs, 2);
    ck_assert_int_eq(t.first.id, 7);
    ck_assert_int_eq(t.first.line, 1);
    tmp_remove(p);
    /* A BOM anywhere but at the start of the file is not skipped. */
    p = tmp_swf("1 0 -1 10 1 10 -1 -1 -1 -1 1" TAIL
                "\xEF\xBB\xBF" "2 1 -1 10 1 10 -1 -1 -1 -1 1" TAIL);
    w = open_ok(p, &c, 8);
    char err[CFG_ERR_MAX];
    ck_assert_int_eq(drain(w, &t, err), -1);
    ck_assert_int_eq(t.jobs, 1);
    ck_assert_ptr_nonnull(strstr(err, ":2: field 1 (job number)"));
    workload_close(w);
    tmp_remove(p);
}
END_TEST

START_TEST(test_large_header)
{
    /* 80,000 distinct keys, each repeated once (the repeat keeps the first
     * value), then one key continued over 200,000 lines: every key and the
     * whole continued value must be there. Parsing this was quadratic
     * (27 s for the keys, 14 s for the continuation); bench/bench_swf
     * prints the figures, the timeout of this test case only guards. */
    enum { KEYS = 80000, CONT = 200000 };
    size_t cap = (size_t)KEYS * 2 * 24 + (size_t)CONT * 8 + 200;
    char *text = malloc(cap);
    char *s = text;
    for (int i = 0; i < KEYS; i++)
        s += sprintf(s, "; K%d: %d\n", i, i);
    for (int i = 0; i < KEYS; i++)
        s += sprintf(s, "; k%d: x%d\n", i, i);
    s += sprintf(s, "; Note: a\n");
    for (int i = 0; i < CONT; i++)
        s += sprintf(s, ";  b\n");
    s += sprintf(s, "1 0 -1 10 1 10 -1 -1 -1 -1 1" TAIL);
    ck_assert_uint_le((size_t)(s - text), cap);
    char *p = tmp_write(text, (size_t)(s - text));
    free(text);
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w;
    tally t = read_all(p, &c, 8, &w);
    ck_assert_int_eq(t.jobs, 1);
    ck_assert_int_eq(t.first.line, 2 * KEYS + 1 + CONT + 1);
    char key[32], val[32];
    for (int i = 0; i < KEYS; i++) {
        snprintf(key, sizeof key, "k%d", i);
        snprintf(val, sizeof val, "%d", i);
        const char *v = workload_header(w, key);
        ck_assert_msg(v && strcmp(v, val) == 0, "%s = %s", key, v ? v : "(null)");
    }
    /* "a" then 200,000 times " b". */
    const char *note = workload_header(w, "Note");
    ck_assert_uint_eq(strlen(note), 1 + 2 * (size_t)CONT);
    ck_assert(note[0] == 'a' && note[1] == ' ' && note[2] == 'b');
    for (size_t i = 1; i < 1 + 2 * (size_t)CONT; i += 2)
        ck_assert(note[i] == ' ' && note[i + 1] == 'b');
    workload_close(w);
    tmp_remove(p);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("workload");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_lanl_sample_mapping);
    tcase_add_test(tc, test_lanl_auto_uses_runtime_for_zero_cputime);
    tcase_add_test(tc, test_header_continuation);
    tcase_add_test(tc, test_lublin_maxnodes_without_maxprocs);
    tcase_add_test(tc, test_floats_in_integer_fields);
    tcase_add_test(tc, test_unknown_everywhere_allowed);
    tcase_add_test(tc, test_auto_policy_edges);
    tcase_add_test(tc, test_gzip_nasa);
    tcase_add_test(tc, test_hpc2n_counts);
    tcase_add_test(tc, test_hpc2n_float_cputime);
    tcase_add_test(tc, test_stdin_regular_file);
    tcase_add_test(tc, test_stdin_gzip_pipe);
    tcase_add_test(tc, test_metacentrum_rejected_at_line_1);
    tcase_add_test(tc, test_malformed_messages_and_lenient);
    tcase_add_test(tc, test_submit_order);
    tcase_add_test(tc, test_each_drop_reason);
    tcase_add_test(tc, test_scales);
    tcase_add_test(tc, test_max_jobs_and_submit_window);
    tcase_add_test(tc, test_window);
    tcase_add_test(tc, test_open_errors);
    tcase_add_test(tc, test_long_lines);
    tcase_add_test(tc, test_line_endings_and_empty_files);
    tcase_add_test(tc, test_progress);
    tcase_add_test(tc, test_truncated_gzip);
    tcase_add_test(tc, test_gzip_written_here);
    tcase_add_test(tc, test_drop_names);
    tcase_add_test(tc, test_header_trailing_blanks);
    tcase_add_test(tc, test_nul_bytes);
    tcase_add_test(tc, test_nul_in_long_line);
    tcase_add_test(tc, test_utf8_bom);
    suite_add_tcase(s, tc);
    /* Linear header parsing: the timeout is a guard only (the quadratic
     * parser took 41 s here; the linear one well under a second). */
    TCase *big = tcase_create("large-header");
    tcase_set_timeout(big, 20);
    tcase_add_test(big, test_large_header);
    suite_add_tcase(s, big);
    return s;
}

TEST_MAIN()
