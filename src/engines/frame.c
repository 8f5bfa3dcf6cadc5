/*
 * frame.c - keys, images and stabilisers of frames (see frame.h).
 */
#include "../core/board.h"
#include "frame.h"

/* Lines in key order: top rows, left columns, right columns, bottom rows.
 * 31 marks a line with no queen (never in a valid frame). */
uint64_t nq_frame_key(const nq_frame *f)
{
    int n = f->n, w = f->width, v[16];
    uint64_t key = 0;
    for (int i = 0; i < 4 * w; i++)
        v[i] = 31;
    for (int q = 0; q < f->count; q++)
        for (int i = 0; i < w; i++) {
            if (f->r[q] == i)
                v[i] = f->c[q];
            if (f->c[q] == i)
                v[w + i] = f->r[q];
            if (f->c[q] == n - w + i)
                v[2 * w + i] = f->r[q];
            if (f->r[q] == n - w + i)
                v[3 * w + i] = f->c[q];
        }
    for (int i = 0; i < 4 * w; i++)
        key = key << 5 | (uint64_t)v[i];
    return key;
}

void nq_frame_image(const nq_frame *f, int t, nq_frame *out)
{
    *out = *f;
    for (int q = 0; q < f->count; q++)
        nq_transform_square(f->n, t, &out->r[q], &out->c[q]);
}

unsigned nq_frame_stabiliser(const nq_frame *f)
{
    uint64_t key = nq_frame_key(f);
    unsigned stab = 1;
    for (int t = 1; t < 8; t++) {
        nq_frame img;
        nq_frame_image(f, t, &img);
        uint64_t k = nq_frame_key(&img);
        if (k < key)
            return 0;
        if (k == key)
            stab |= 1u << t;
    }
    return stab;
}

int nq_frame_consistent(const nq_frame *f)
{
    for (int a = 0; a < f->count; a++)
        for (int b = 0; b < a; b++) {
            if (nq_lines_shared(f->r[a], f->c[a], f->r[b], f->c[b]))
                return 0;
        }
    return 1;
}
