/* app/config_pnrsim.h: PNRSim's "Name value" configuration files
 * (app/config_pnrsim.c). Private to the configuration module (app/config.h
 * lists its files in their layers). */
#ifndef PNRSIM_APP_CONFIG_PNRSIM_H
#define PNRSIM_APP_CONFIG_PNRSIM_H

#include "app/config_types.h"

#include <stddef.h>

/* Parse PNRSim "Name value" text (len bytes, NUL-terminated, modified in
 * place) read from path onto *c; on error *c is unchanged. 0 or -1 with e
 * (at the file's line). */
int cfg_parse_pnrsim_text(config *c, const char *path, char *text, size_t len,
                          cfg_error *e);

#endif
