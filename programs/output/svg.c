/*
 * svg.c - solutions as a picture: chessboards in one SVG document.
 *
 * An SVG document needs its size before its content, and a grid of boards
 * needs to know how many there are, so the boards are collected as they
 * come and written at the end (solve caps how many).  Each board is a group
 * with a <title> giving its array, so a browser shows it on hover and a
 * program can read it back; squares are light and dark with (0,0) light,
 * row 0 at the top and column 0 at the left, numbered from 0 as the arrays
 * are; queens are one vector symbol, so no font is needed to draw them.
 */
#include <stdlib.h>
#include <string.h>

#include "format.h"

static struct {
    int n, failed;
    int *cols;                    /* the boards, n entries each */
    unsigned long long count, cap;
} boards;

void cli_svg_begin(FILE *out, int n)
{
    (void)out;
    free(boards.cols);
    memset(&boards, 0, sizeof boards);
    boards.n = n;
}

void cli_svg_board(FILE *out, const int *cols, int n, unsigned long long index)
{
    (void)out, (void)index;
    if (boards.failed)
        return;
    if (boards.count == boards.cap) {
        unsigned long long cap = boards.cap ? 2 * boards.cap : 16;
        int *nc = realloc(boards.cols, sizeof *nc * (size_t)(cap * (unsigned)n));
        if (!nc) {
            boards.failed = 1;
            return;
        }
        boards.cols = nc, boards.cap = cap;
    }
    memcpy(boards.cols + boards.count++ * (unsigned)n, cols, sizeof *cols * (size_t)n);
}

/* The geometry of the picture: square size, one board's cell, the grid. */
typedef struct {
    int sq, margin, caption, cell_w, cell_h, per_row, rows;
} layout;

static layout plan_layout(int n, unsigned long long count)
{
    layout l;
    l.sq = n <= 8 ? 40 : n <= 16 ? 28 : 480 / n > 4 ? 480 / n : 4;
    l.margin = l.sq >= 12 ? 18 : 4;  /* room for the coordinates */
    l.caption = 20;
    l.cell_w = l.margin + n * l.sq + 16;
    l.cell_h = l.margin + n * l.sq + l.caption + 12;
    int fit = 1200 / l.cell_w > 1 ? 1200 / l.cell_w : 1;
    l.per_row = count < (unsigned long long)fit ? (int)count : fit;
    l.per_row = l.per_row ? l.per_row : 1;
    l.rows = (int)((count + (unsigned)l.per_row - 1) / (unsigned)l.per_row);
    return l;
}

/* A queen in a 100 x 100 box: a five-pointed crown on a base. */
static void write_queen(FILE *out)
{
    fputs("<symbol id=\"queen\" viewBox=\"0 0 100 100\">\n"
          "<g fill=\"#1d1d1d\" stroke=\"#fafafa\" stroke-width=\"4\" "
          "stroke-linejoin=\"round\">\n"
          "<path d=\"M20 74 L12 32 L32 56 L38 22 L50 52 L62 22 L68 56 "
          "L88 32 L80 74 Z\"/>\n"
          "<rect x=\"18\" y=\"76\" width=\"64\" height=\"12\" rx=\"4\"/>\n"
          "<circle cx=\"12\" cy=\"28\" r=\"6\"/><circle cx=\"38\" cy=\"18\" "
          "r=\"6\"/><circle cx=\"62\" cy=\"18\" r=\"6\"/>"
          "<circle cx=\"88\" cy=\"28\" r=\"6\"/>\n</g>\n</symbol>\n",
          out);
}

/* Column numbers along the top, row numbers down the left. */
static void write_coordinates(FILE *out, const layout *l, int n)
{
    int fs = l->sq < 24 ? l->sq * 2 / 3 : 14;
    fprintf(out, "<g font-family=\"sans-serif\" font-size=\"%d\" "
            "fill=\"#555\" text-anchor=\"middle\">\n", fs);
    for (int i = 0; i < n; i++) {
        fprintf(out, "<text x=\"%d\" y=\"%d\">%d</text>", l->margin +
                i * l->sq + l->sq / 2, l->margin - 5, i);
        fprintf(out, "<text x=\"%d\" y=\"%d\">%d</text>\n", l->margin / 2,
                l->margin + i * l->sq + l->sq / 2 + fs / 3, i);
    }
    fputs("</g>\n", out);
}

/* The empty board with its coordinates, defined once and used by each. */
static void write_empty_board(FILE *out, const layout *l, int n)
{
    fputs("<g id=\"board\">\n", out);
    if (l->margin > 4)
        write_coordinates(out, l, n);
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
            "fill=\"#f0d9b5\" stroke=\"#6b4f36\" stroke-width=\"2\"/>\n",
            l->margin, l->margin, n * l->sq, n * l->sq);
    for (int r = 0; r < n; r++)
        for (int c = (r + 1) % 2; c < n; c += 2)
            fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                    "fill=\"#b58863\"/>\n", l->margin + c * l->sq,
                    l->margin + r * l->sq, l->sq, l->sq);
    fputs("</g>\n", out);
}

static void write_board(FILE *out, const layout *l, const int *cols, int n,
                        unsigned long long index)
{
    int x = (int)(index % (unsigned)l->per_row) * l->cell_w;
    int y = (int)(index / (unsigned)l->per_row) * l->cell_h;
    fprintf(out, "<g transform=\"translate(%d %d)\">\n<title>#%llu:", x, y,
            index + 1);
    for (int r = 0; r < n; r++)
        fprintf(out, " %d", cols[r]);
    fputs("</title>\n<use xlink:href=\"#board\"/>\n", out);
    for (int r = 0; r < n; r++)
        fprintf(out, "<use xlink:href=\"#queen\" x=\"%d\" y=\"%d\" "
                "width=\"%d\" height=\"%d\"/>\n", l->margin + cols[r] * l->sq,
                l->margin + r * l->sq, l->sq, l->sq);
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-family=\"sans-serif\" "
            "font-size=\"13\" fill=\"#333\">#%llu", l->margin,
            l->margin + n * l->sq + 16, index + 1);
    for (int r = 0; r < n && n <= 16; r++)
        fprintf(out, r ? " %d" : ":  %d", cols[r]);
    fputs("</text>\n</g>\n", out);
}

int cli_svg_end(FILE *out, int n, unsigned long long count)
{
    (void)count; /* the boards kept are the ones drawn */
    count = boards.count;
    if (boards.failed)
        return -1;
    layout l = plan_layout(n, count);
    int w = l.per_row * l.cell_w, h = l.rows ? l.rows * l.cell_h : l.cell_h;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" "
            "xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\">\n"
            "<title>%d queens: %llu board%s</title>\n", w, h, w, h, n, count,
            count == 1 ? "" : "s");
    fputs("<defs>\n", out);
    write_queen(out);
    write_empty_board(out, &l, n);
    fputs("</defs>\n", out);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", w, h);
    for (unsigned long long i = 0; i < count; i++)
        write_board(out, &l, boards.cols + i * (unsigned)n, n, i);
    fputs("</svg>\n", out);
    free(boards.cols);
    memset(&boards, 0, sizeof boards);
    return 0;
}
