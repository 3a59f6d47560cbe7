/* app/config_ini.h: INI configuration files, read through inih
 * (app/config_ini.c). Private to the configuration module (app/config.h
 * lists its files in their layers). */
#ifndef PNRSIM_APP_CONFIG_INI_H
#define PNRSIM_APP_CONFIG_INI_H

#include "app/config_types.h"

#include <stddef.h>

/* Parse INI text (len bytes, NUL-terminated) read from path onto *c; on
 * error *c is unchanged. 0 or -1 with e (the file's line, or line 0). */
int cfg_parse_ini_text(config *c, const char *path, const char *text, size_t len,
                       cfg_error *e);

#endif
