/*
 * frame.h - the queens on a board's outer rows and columns, up to symmetry.
 *
 * The carry engine pre-places the queens of the two outer rows and columns
 * on each side (a width-2 frame), the fast engine those of the outermost
 * row and column (width 1).  Each of those lines holds exactly one queen of
 * any solution, so such a frame is read as a key: the column of the queen
 * in each top row, the row of the queen in each left then right column,
 * then the column in each bottom row.  The 8 symmetries of the board map
 * frames to frames; a frame is canonical when no image has a smaller key,
 * and its orbit has 8 / |stabiliser| members.
 */
#ifndef NQ_FRAME_H
#define NQ_FRAME_H

#include <stdint.h>

#include "nqueens.h"

typedef struct {
    int n, width;
    int count;      /* queens on the frame (corner queens once) */
    int r[8], c[8];
} nq_frame;

/* The frame's key (8 lines of 5 bits for width 2, 4 for width 1). */
uint64_t nq_frame_key(const nq_frame *f);
/* The frame's image under symmetry t (0..7, numbered as in core/transform.c). */
void nq_frame_image(const nq_frame *f, int t, nq_frame *out);
/* Bit t set for each symmetry t mapping the frame to itself, if it is
 * canonical; 0 if an image has a smaller key. */
unsigned nq_frame_stabiliser(const nq_frame *f);
/* 1 if the frame's queens do not attack each other. */
int nq_frame_consistent(const nq_frame *f);

#endif
