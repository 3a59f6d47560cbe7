/* net/report.c: the network part of --hardware-report (net_report).
 *
 * One line per link and switch with the messages and bytes that crossed it,
 * its busy time and utilisation, and its queue length (time-weighted mean
 * and maximum); then a summary of the routes: how many ordered pairs of
 * distinct PEs have routes of each length, and the routes 0->1 and 0->N-1
 * spelled out. Built on the public interface of net.h only.
 *
 * With more than NET_REPORT_ALL elements (CONNECTED on many PEs has
 * N(N-1) links) elements that never carried a message and were never busy
 * are counted on one line instead of listed. Only the elements that exist
 * are visited (CONNECTED links are created on first use), and the route
 * histogram walks all N(N-1) pairs only up to NET_ROUTE_PES PEs, so the
 * report of a network of 50,000 PEs takes no N^2 time or memory.
 */
#include "net/internal.h"
#include "net/net.h"

#include <assert.h>

enum { NET_REPORT_ALL = 64, NET_ROUTE_MAX = 8, NET_ROUTE_PES = 4096 };

/* Print the route src -> dst as "src->dst: elem, elem, ... (time)". */
static void net_report_route(const net_t *net, int src, int dst, FILE *out)
{
    int len = net_route_len(net, src, dst);
    fprintf(out, "  route %d->%d (%d hop%s):", src, dst, len, len == 1 ? "" : "s");
    for (int k = 0; k < len; k++)
        fprintf(out, "%s %s", k ? "," : "", net_route_elem(net, src, dst, k)->name);
    fprintf(out, "\n");
}

void net_report(const sim_t *sim, const net_t *net, FILE *out)
{
    /* net_elem_at takes a non-const net: elements are only read here. */
    net_t *nt = (net_t *)net;
    int n = net_pe_count(net);
    long ne = net_elem_count(net), nlive = net_elem_live_count(net);
    long nlinks = ne, nswitches = 0;
    const net_elem *link = NULL, *sw = NULL;
    for (long k = 0; k < nlive; k++) {
        const net_elem *e = net_elem_live_at(nt, k);
        if (e->is_switch) {
            nswitches++;
            nlinks--;
            sw = e;
        } else if (!link) {
            link = e;
        }
    }
    if (!link && nlinks > 0) /* CONNECTED with no link used yet */
        link = net_elem_at(nt, 0);
    fprintf(out, "network: %s, %d PE%s, %ld link%s, %ld switch%s\n",
            net_topology_name(net_topology_kind(net)), n, n == 1 ? "" : "s",
            nlinks, nlinks == 1 ? "" : "s", nswitches, nswitches == 1 ? "" : "es");
    if (link)
        fprintf(out, "  link bandwidth %g B/s, latency %g s (held during the latency)\n",
                link->bandwidth, link->latency);
    if (sw)
        fprintf(out, "  switch delay %g s\n", sw->delay);
    const net_tree *tr = net_tree_shape(net);
    if (tr) {
        int nr = net_rack_count(net), crack = (tr->ncompute + tr->rack_size - 1) / tr->rack_size;
        int ns = n - tr->ncompute;
        fprintf(out, "  tree: %d rack%s of up to %d PEs on top-of-rack switches (tor 0..%d), "
                     "joined by the core switch over one uplink each\n",
                nr, nr == 1 ? "" : "s", tr->rack_size, nr - 1);
        fprintf(out, "  compute PEs 0..%d in racks 0..%d (PE p in rack p / %d)", tr->ncompute - 1,
                crack - 1, tr->rack_size);
        if (ns > 0 && tr->servers == NET_SERVERS_SPREAD)
            fprintf(out, "; memory servers %d..%d spread: server k in rack k mod %d", tr->ncompute,
                    n - 1, crack);
        else if (ns > 0)
            fprintf(out, "; memory servers %d..%d in racks %d..%d of their own", tr->ncompute,
                    n - 1, crack, nr - 1);
        fprintf(out, "\n  uplink bandwidth %g B/s, latency %g s; routes: same rack 3 hops "
                     "(link, tor, link), other rack 7 (link, tor, uplink, core, uplink, tor, "
                     "link)\n",
                tr->uplink_bandwidth, tr->uplink_latency);
    }

    fprintf(out, "  %-16s %10s %14s %12s %7s %8s %6s\n", "element", "messages",
            "bytes", "busy (s)", "util", "mean q", "max q");
    long hidden = ne - net_elem_live_count(net); /* links never used */
    for (long k = 0; k < net_elem_live_count(net); k++) {
        const net_elem *e = net_elem_live_at(nt, k);
        double busy = net_elem_busy_time(sim, e);
        /* WHOLE: a reservation already over and not yet settled is a
         * crossing done (whole_resv_done). */
        double rbytes;
        int done = whole_resv_done(sim, e, &rbytes);
        uint64_t msgs = e->messages + (uint64_t)done;
        double bytes = e->bytes + (done ? rbytes : 0);
        if (ne > NET_REPORT_ALL && msgs == 0 && busy == 0) {
            hidden++;
            continue;
        }
        double span = sim->now - e->res.queue.t0;
        fprintf(out, "  %-16s %10llu %14.0f %12.6g %7.4f %8.4g %6.0f\n", e->name,
                (unsigned long long)msgs, bytes, busy, span > 0 ? busy / span : 0,
                timeavg_mean(&e->res.queue, sim->now), e->res.queue.max);
    }
    if (hidden)
        fprintf(out, "  (%ld idle element%s not listed)\n", hidden, hidden == 1 ? "" : "s");
    fprintf(out, "  total busy time %.6g s; messages sent %llu, delivered %llu, "
            "in flight %ld, restarted %llu; bytes sent %.0f\n",
            net_busy_time(sim, net), (unsigned long long)net_messages_sent(net),
            (unsigned long long)net_messages_delivered(net), net_in_flight(net),
            (unsigned long long)net_restarts(net), net_bytes_sent(net));
    if (net_route_mode_of(net) == NET_ROUTE_WHOLE)
        fprintf(out, "  route mode whole: %llu sends and restarts took their route as one "
                "step; %llu requests waited behind a reservation not yet begun\n",
                (unsigned long long)net_whole_routes(net), (unsigned long long)net_held_back(net));
    if (net_virtual_waits(net))
        fprintf(out, "  batched paging: %llu messages waited for a link a batched page was "
                "crossing\n", (unsigned long long)net_virtual_waits(net));

    /* Route summary over all ordered pairs of distinct PEs. */
    if (n > NET_ROUTE_PES) {
        fprintf(out, "routes: %ld ordered pairs (not counted by length above %d PEs)\n",
                (long)n * (n - 1), NET_ROUTE_PES);
        net_report_route(net, 0, 1, out);
        net_report_route(net, 0, n - 1, out);
        return;
    }
    long hist[NET_ROUTE_MAX] = {0};
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++)
            if (s != d) {
                int len = net_route_len(net, s, d);
                assert(len > 0 && len < NET_ROUTE_MAX);
                hist[len]++;
            }
    fprintf(out, "routes: %ld ordered pairs;", (long)n * (n - 1));
    int any = 0;
    for (int len = 1; len < NET_ROUTE_MAX; len++)
        if (hist[len]) {
            fprintf(out, "%s %ld of %d hop%s", any ? "," : "", hist[len], len,
                    len == 1 ? "" : "s");
            any = 1;
        }
    fprintf(out, "%s\n", any ? "" : " none (a single PE)");
    if (n > 1)
        net_report_route(net, 0, 1, out);
    if (n > 2)
        net_report_route(net, 0, n - 1, out);
}

const net_elem *net_longest_queue(net_t *net)
{
    const net_elem *best = NULL;
    for (long k = 0; k < net_elem_live_count(net); k++) {
        const net_elem *e = net_elem_live_at(net, k);
        if (e->res.q.n > 0 && (!best || e->res.q.n > best->res.q.n))
            best = e;
    }
    return best;
}
