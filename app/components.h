/* app/components.h: the built-in components (app/components.c). */
#ifndef PNRSIM_APP_COMPONENTS_H
#define PNRSIM_APP_COMPONENTS_H

/* Register every built-in component in the process's registry, once
 * (later calls do nothing). config_defaults calls it, so every reader of
 * configuration finds the built-ins. */
void components_init(void);

#endif
