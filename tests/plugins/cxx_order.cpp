// tests/plugins/cxx_order.cpp: a C++ plugin (the public headers' extern
// "C" guards): a queue order CXXORDER on sched/order.h, built with g++
// against the installed headers by tests/test_plugins.sh.
#include "core/registry.h"
#include "sched/order.h"

PNRSIM_PLUGIN_DECLARE;

namespace {
double key(void *, const sched_job_info *j, double)
{
    return static_cast<double>(j->order);
}
sched_order_ops make_ops()
{
    sched_order_ops o = sched_order_ops();
    o.key = key;
    return o;
}
const sched_order_ops ops = make_ops();
} // namespace

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    if (api_version != PNRSIM_API_VERSION)
        return 1;
    return pnrsim_register(r, PNRSIM_KIND_PRIORITY, "CXXORDER", "a C++ plugin", &ops) != PNRSIM_OK;
}
