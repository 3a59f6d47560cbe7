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
 *
 * This file: the appendix sample, the header, number syntax, real traces,
 * standard input and malformed lines. The policies, files and progress,
 * and hostile input are in tests/test_workload_policy.c; helpers in
 * tests/fixture_workload.h.
 */
#include "app/workload.h"
#include "tests/testutil.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include "tests/fixture_workload.h"

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
    /* Rounded processor counts are counted: job 2 (2.6), line 2; "4.0"
     * and "+1" are whole, and the dropped 0.4 is a drop, not a rounding. */
    long first = -1;
    ck_assert_int_eq(workload_rounded(w, &first), 1);
    ck_assert_int_eq(first, 2);
    workload_close(w);
    tmp_remove(p);
}
END_TEST

/* SWF fields 12 (user) and 13 (group), issue 35: whole numbers as
 * written ("3.0" is 3), -1 when unknown. */
START_TEST(test_user_group)
{
    char *p = tmp_swf("1 0 -1 10 1 10 -1 1 -1 -1 1 7 3.0 -1 -1 -1 -1 -1\n"
                      "2 5 -1 10 1 10 -1 1 -1 -1 1 -1 12 -1 -1 -1 -1 -1\n");
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    workload *w = open_ok(p, &c, 8);
    char err[CFG_ERR_MAX];
    wl_job j;
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(j.user, 7);
    ck_assert_int_eq(j.group, 3);
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_int_eq(j.user, -1);
    ck_assert_int_eq(j.group, 12);
    ck_assert_int_eq(workload_next(w, &j, err), 0);
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
    ck_assert_int_eq(j.user, -1);       /* fields 12, 13 unknown (issue 35) */
    ck_assert_int_eq(j.group, -1);
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
    ck_assert_near(f, -1, 0);            /* pipe: size unknown */
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

/* Job numbers of kept jobs ascend (techreport 2.1.3: "a unique ascending
 * number"): a duplicate or a smaller number is an error naming both lines;
 * under lenient it is skipped and counted as malformed. Dropped records
 * are not checked. */
START_TEST(test_job_numbers_ascend)
{
    static const char *const cases[][2] = {
        {"1 0 -1 10 1 10 -1 -1 -1 -1 1" TAIL "2 5 -1 10 1 10 -1 -1 -1 -1 1" TAIL
         "2 6 -1 10 1 10 -1 -1 -1 -1 1" TAIL "3 7 -1 10 1 10 -1 -1 -1 -1 1" TAIL,
         ":3: field 1 (job number) is 2, not above 2 of the job on line 2: job numbers must "
         "be unique and ascending"},
        {"5 0 -1 10 1 10 -1 -1 -1 -1 1" TAIL "7 5 -1 10 1 10 -1 -1 -1 -1 1" TAIL
         "6 6 -1 10 1 10 -1 -1 -1 -1 1" TAIL "8 7 -1 10 1 10 -1 -1 -1 -1 1" TAIL,
         ":3: field 1 (job number) is 6, not above 7 of the job on line 2"},
    };
    config c;
    cfg_init(&c, CPU_DEMAND_CPUTIME);
    for (size_t k = 0; k < 2; k++) {
        char *p = tmp_swf(cases[k][0]);
        char err[CFG_ERR_MAX];
        wl_job j;
        c.workload.lenient = false;
        workload *w = open_ok(p, &c, 8);
        ck_assert_int_eq(workload_next(w, &j, err), 1);
        ck_assert_int_eq(workload_next(w, &j, err), 1);
        ck_assert_int_eq(workload_next(w, &j, err), -1);
        ck_assert_msg(!strncmp(err, p, strlen(p)) && strstr(err, cases[k][1]), "%s", err);
        workload_close(w);
        c.workload.lenient = true;
        tally t = read_all(p, &c, 8, &w);
        ck_assert_int_eq(t.jobs, 3);                       /* lines 1, 2, 4 */
        ck_assert_int_eq(t.last.line, 4);
        ck_assert_int_eq(workload_dropped(w, WL_DROP_MALFORMED), 1);
        ck_assert_int_eq(workload_records(w), 4);
        workload_close(w);
        tmp_remove(p);
    }
    /* A dropped record (too wide) with a repeated number is not checked. */
    char *q = tmp_swf("1 0 -1 10 1 10 -1 -1 -1 -1 1" TAIL "1 5 -1 10 99 10 -1 -1 -1 -1 1" TAIL
                      "2 6 -1 10 1 10 -1 -1 -1 -1 1" TAIL);
    c.workload.lenient = false;
    workload *w;
    tally t = read_all(q, &c, 8, &w);
    ck_assert_int_eq(t.jobs, 2);
    ck_assert_int_eq(workload_dropped(w, WL_DROP_WIDE), 1);
    workload_close(w);
    tmp_remove(q);
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
    tcase_add_test(tc, test_job_numbers_ascend);
    tcase_add_test(tc, test_unknown_everywhere_allowed);
    tcase_add_test(tc, test_user_group);
    tcase_add_test(tc, test_auto_policy_edges);
    tcase_add_test(tc, test_gzip_nasa);
    tcase_add_test(tc, test_hpc2n_counts);
    tcase_add_test(tc, test_hpc2n_float_cputime);
    tcase_add_test(tc, test_stdin_regular_file);
    tcase_add_test(tc, test_stdin_gzip_pipe);
    tcase_add_test(tc, test_metacentrum_rejected_at_line_1);
    tcase_add_test(tc, test_malformed_messages_and_lenient);
    tcase_add_test(tc, test_submit_order);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
