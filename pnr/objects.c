/* pnr/objects.c: protocol-object tracking and piece lists (objects.h), the
 * lowest file of pnr/: every other file may use it, it uses none of them.
 */
#include "pnr/objects.h"

#include "core/mem.h"

void pnr_track(pnr_t *p, pobj *o, pobj_kind kind, void (*destroy)(pobj *))
{
    o->kind = kind;
    o->destroy = destroy;
    list_add_head(&p->objs, &o->node);
}

void pnr_untrack(pobj *o)
{
    list_del(&o->node);
}

void pnr_add_piece(pieces_t *ps, int server, double mb)
{
    for (int i = 0; i < ps->n; i++)
        if (ps->v[i].server == server) {
            ps->v[i].mb += mb;
            return;
        }
    if (ps->n == ps->cap) {
        ps->cap = ps->cap ? 2 * ps->cap : 4;
        ps->v = xrealloc(ps->v, (size_t)ps->cap * sizeof *ps->v);
    }
    ps->v[ps->n++] = (piece_t){server, mb};
}
