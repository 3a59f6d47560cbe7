/* app/config_write.c: the whole configuration written as INI
 * (config_write_ini: --print-config and each run's config.ini), the
 * plugins loaded and their keys included; and only the keys that differ
 * from the built-in defaults (config_write_changed: --print-config
 * --changed), with the same comments and '; from' lines.
 *
 * In the configuration module's layers (app/config.h) this file is above
 * app/config.c's readers and the plugins (app/plugin.c), which it lists.
 */
#include "app/config.h"
#include "app/config_keys.h"
#include "app/config_value.h"
#include "app/plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Writing                                                                 */
/* ---------------------------------------------------------------------- */

/* Key i of the table, under a comment with its unit and limits and, when
 * it was set (config_origin), a line saying where. */
static void write_key(const config *c, size_t i, FILE *out)
{
    const key_def *kd = &cfg_keys[i];
    char allowed[160], value[CFG_PATH_MAX + 64];
    cfg_describe_terse(kd, allowed, sizeof allowed);
    cfg_format_value(kd, c, value, sizeof value);
    fprintf(out, "; %s [%s%s%s]\n", kd->comment, kd->unit, kd->unit[0] ? "; " : "", allowed);
    if (c->origin[i][0])
        fprintf(out, "; from %s\n", c->origin[i]);
    fprintf(out, "%s =%s%s\n", kd->key, value[0] ? " " : "", value);
}

/* The plugins loaded ([plugins] load, absolute paths, so that the file
 * replays anywhere), each with its SHA-256 and what it registered, then
 * the sections of their keys in the order declared. Nothing without
 * plugins. */
static void write_plugins(const config *c, const config *def, FILE *out)
{
    size_t n = plugin_count();
    if (n == 0)
        return;
    fprintf(out, "\n; Plugins loaded (--plugin FILE or [plugins] load), in order: for "
                 "each, where it was named,\n; its SHA-256 and what it registered.\n[%s]\n",
            CFG_PLUGINS_SECTION);
    for (size_t p = 0; p < n; p++) {
        const plugin_info *pi = plugin_at(p);
        fprintf(out, "; %s (from %s): sha256 %s; registers %s\n", pi->path, pi->from,
                pi->sha256, pi->names[0] ? pi->names : "nothing");
    }
    fprintf(out, "load =");
    for (size_t p = 0; p < n; p++)
        fprintf(out, "%s %s", p ? "," : "", plugin_at(p)->path);
    fputc('\n', out);
    for (size_t i = cfg_nbuiltin; i < cfg_nkeys; i++) {
        size_t first = cfg_nbuiltin;
        while (strcmp(cfg_keys[first].section, cfg_keys[i].section))
            first++;
        if (first != i)
            continue; /* a section already written */
        bool any = !def;
        for (size_t j = i; j < cfg_nkeys && !any; j++)
            any = !strcmp(cfg_keys[j].section, cfg_keys[i].section) &&
                  !cfg_value_equal(&cfg_keys[j], c, def);
        if (!any)
            continue; /* --changed: nothing of this section differs */
        fprintf(out, "\n; Keys of a plugin.\n[%s]\n", cfg_keys[i].section);
        for (size_t j = i; j < cfg_nkeys; j++)
            if (!strcmp(cfg_keys[j].section, cfg_keys[i].section) &&
                (!def || !cfg_value_equal(&cfg_keys[j], c, def)))
                write_key(c, j, out);
    }
}

/* Every key, by section (write_key), the plugins' last. */
void config_write_ini(const config *c, FILE *out)
{
    fprintf(out, "; pnrsim configuration: every key, with its unit and allowed values.\n"
                 "; Units: s = simulated seconds, MB = 2^20 bytes of memory, MB/s =\n"
                 "; 10^6 bytes/s. Section, key and enum names are case-insensitive;\n"
                 "; ';' starts a comment. Above a key set by a file (-c FILE..., later\n"
                 "; files over earlier ones), -t, -s or --set, '; from' says where\n"
                 "; (FILE:LINE, the option); the other keys hold their defaults.\n");
    for (size_t s = 0; s < cfg_nsections; s++) {
        fprintf(out, "\n; %s\n[%s]\n", cfg_sections[s].comment, cfg_sections[s].name);
        for (size_t i = 0; i < cfg_nbuiltin; i++)
            if (!strcmp(cfg_keys[i].section, cfg_sections[s].name))
                write_key(c, i, out);
    }
    write_plugins(c, NULL, out);
}

/* Only the keys whose value differs from the built-in defaults
 * (config_defaults; compared as the run compares configurations,
 * cfg_value_equal), by section, a section's header only when it has such
 * a key; the plugins' [plugins] load whenever plugins are loaded. */
int config_write_changed(const config *c, FILE *out)
{
    config *def = malloc(sizeof *def);
    if (!def)
        return -1;
    config_defaults(def);
    fprintf(out, "; pnrsim configuration: only the keys that differ from the built-in\n"
                 "; defaults (pnrsim --print-config lists every key), each with its unit,\n"
                 "; allowed values and '; from' line (FILE:LINE, the option).\n");
    for (size_t s = 0; s < cfg_nsections; s++) {
        bool header = false;
        for (size_t i = 0; i < cfg_nbuiltin; i++) {
            if (strcmp(cfg_keys[i].section, cfg_sections[s].name) ||
                cfg_value_equal(&cfg_keys[i], c, def))
                continue;
            if (!header)
                fprintf(out, "\n; %s\n[%s]\n", cfg_sections[s].comment, cfg_sections[s].name);
            header = true;
            write_key(c, i, out);
        }
    }
    write_plugins(c, def, out);
    free(def);
    return 0;
}
