/*
 * tree.c - `nqueens tree`: the recursion tree an engine walks.
 *
 * The tree is rebuilt from the engine's own walk (nq_walk_search): each
 * placement is a node (the empty board is the root, each level one more
 * queen), each removal climbs back up.  So what is drawn is what the engine
 * did, not a separate model of it, and the recursive and iterative forms of
 * an engine must draw the same tree.  A node with no children that is not a
 * complete placement is a dead end: the search placed a queen there and
 * found nowhere to put the next.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../cli.h"

static const char tree_help[] = N_(
    "usage: nqueens tree N [options]\n"
    "\n"
    "Draw the recursion tree an engine walks for the N x N board: the root\n"
    "is the empty board, each node one more queen (shown as the columns of\n"
    "the queens so far, row 0 first), solutions and dead ends marked.\n"
    "For N=4 the plain backtracking tree has 17 nodes and 2 solutions.\n"
    "\n"
    "options:\n"
    "{options}"
    "\n"
    "examples:\n"
    "  nqueens tree 4\n"
    "  nqueens tree 8 --engine bitmap --depth 3\n"
    "  nqueens tree 5 --format dot | dot -Tsvg > tree.svg\n");

enum { MARK_SOLUTION = 1, MARK_FAILED = 2, MARK_DEAD = 4 };

/* The most nodes drawn, and the most walked: past these the picture is
 * useless and the wait long, so the command stops and says so. */
#define TREE_MAX_DRAWN 1000000
#define TREE_MAX_WALKED 200000000ull

typedef struct {
    int parent, last, next, first;  /* links; -1 for none */
    int col, depth;
    unsigned marks;
    uint64_t hidden, hidden_solutions;  /* folded below --depth */
} tree_node;

/* The walk's state at one level of the current path. */
typedef struct {
    int id;       /* the node drawn for this level, -1 when folded */
    int shown;    /* the nearest drawn node at or above this level */
    int children; /* the node has a child */
    int ended;    /* a complete placement: a solution or a failure */
} tree_level;

typedef struct {
    tree_node *nodes;
    int count, cap, n, max_depth, depth;
    int base; /* --one-based: 1, columns printed from 1 (text, DOT) */
    int too_big, broken;
    tree_level lv[NQ_MAX_N + 1];
    uint64_t placed, solutions, dead_ends, failed;
} tree;

/* A new node under `parent`; -1 (and too_big set) past the drawing cap. */
static int add_node(tree *t, int parent, int col)
{
    if (t->count == TREE_MAX_DRAWN) {
        t->too_big = 1;
        return -1;
    }
    if (t->count == t->cap) {
        int cap = t->cap ? 2 * t->cap : 1024;
        tree_node *nn = realloc(t->nodes, sizeof *nn * (size_t)cap);
        if (!nn) {
            t->too_big = 1;
            return -1;
        }
        t->nodes = nn, t->cap = cap;
    }
    int id = t->count++;
    t->nodes[id] = (tree_node){parent, -1, -1, -1, col,
                               parent < 0 ? 0 : t->nodes[parent].depth + 1,
                               0, 0, 0};
    if (parent >= 0) {
        tree_node *p = &t->nodes[parent];
        if (p->last >= 0)
            t->nodes[p->last].next = id;
        else
            p->first = id;
        p->last = id;
    }
    return id;
}

static int tree_place(tree *t, const nq_event *e)
{
    if (e->row != t->depth || t->depth >= t->n) {
        t->broken = 1; /* not a row-by-row walk: refuse to draw it */
        return 1;
    }
    if (++t->placed > TREE_MAX_WALKED)
        return 1;
    tree_level *up = &t->lv[t->depth], *lv = &t->lv[++t->depth];
    up->children = 1;
    lv->children = lv->ended = 0;
    lv->id = up->id >= 0 && t->depth <= t->max_depth
                 ? add_node(t, up->id, e->col) : -1;
    lv->shown = lv->id >= 0 ? lv->id : up->shown;
    if (lv->id < 0)
        t->nodes[lv->shown].hidden++;
    return t->too_big;
}

static int tree_remove(tree *t, const nq_event *e)
{
    tree_level *lv = &t->lv[t->depth];
    if (e->row != t->depth - 1) {
        t->broken = 1;
        return 1;
    }
    if (!lv->children && !lv->ended) {
        t->dead_ends++;
        if (lv->id >= 0)
            t->nodes[lv->id].marks |= MARK_DEAD;
    }
    t->depth--;
    return 0;
}

/* A complete placement: a solution, or (brute force) one that fails. */
static int tree_end(tree *t, unsigned mark)
{
    tree_level *lv = &t->lv[t->depth];
    lv->ended = 1;
    if (mark == MARK_SOLUTION)
        t->solutions++;
    else
        t->failed++;
    if (lv->id >= 0)
        t->nodes[lv->id].marks |= mark;
    else if (mark == MARK_SOLUTION)
        t->nodes[lv->shown].hidden_solutions++;
    return 0;
}

static int on_tree_event(void *ctx, const nq_event *e)
{
    tree *t = ctx;
    if (t->placed > TREE_MAX_WALKED || t->too_big)
        return 1; /* past a limit: what the engine says while it unwinds
                     is not looked at (it would look like a broken walk) */
    switch (e->kind) {
    case NQ_EVENT_PLACE:
        return tree_place(t, e);
    case NQ_EVENT_REMOVE:
        return tree_remove(t, e);
    case NQ_EVENT_SOLUTION:
        return tree_end(t, MARK_SOLUTION);
    case NQ_EVENT_FAIL:
        return tree_end(t, MARK_FAILED);
    default:
        return 0;
    }
}

/* The columns of a node's queens, row 0 first; returns how many. */
static int node_cols(const tree *t, int id, int *cols)
{
    int depth = t->nodes[id].depth;
    for (int i = depth - 1; i >= 0; i--, id = t->nodes[id].parent)
        cols[i] = t->nodes[id].col;
    return depth;
}

static void print_cols(FILE *out, const int *cols, int k, int base)
{
    for (int i = 0; i < k; i++)
        fprintf(out, "%s%d", i ? " " : "", cols[i] + base);
}

/* "17 nodes, 2 solutions, 4 dead ends", and what else happened: in the
 * user's language where `w` (the text tree), in English in the DOT
 * label (a picture's fonts may lack the glyphs; SVG is made from it). */
static void print_summary(FILE *out, const tree *t, const char *end, int w)
{
    unsigned long long nodes = t->placed + 1, sols = t->solutions,
                       dead = t->dead_ends;
    /* TRANSLATORS: the separator of the summary's parts */
    const char *sep = cli_words(w, ", ");
    fprintf(out, cli_nwords(w, "%llu node", "%llu nodes", nodes), nodes);
    fputs(sep, out);
    fprintf(out, cli_nwords(w, "%llu solution", "%llu solutions", sols), sols);
    fputs(sep, out);
    fprintf(out, cli_nwords(w, "%llu dead end", "%llu dead ends", dead), dead);
    if (t->failed) {
        fputs(sep, out);
        fprintf(out, cli_words(w, "%llu complete placements that fail"),
                (unsigned long long)t->failed);
    }
    if ((uint64_t)t->count < t->placed + 1)
        fprintf(out, cli_words(w, " (%d drawn, levels 0..%d)"), t->count,
                t->max_depth);
    fputs(end, out);
}

/* ---- text ---- */

static void text_marks(FILE *out, const tree_node *nd)
{
    if (nd->marks & MARK_SOLUTION)
        fputs(_("  \u2713 solution"), out);
    if (nd->marks & MARK_DEAD)
        fputs(_("  \u2717 dead end"), out);
    if (nd->marks & MARK_FAILED)
        fputs(_("  \u2717 queens attack each other"), out);
    if (nd->hidden)
        fprintf(out, ngettext("  (+%llu below, %llu solution)",
                              "  (+%llu below, %llu solutions)",
                              (unsigned long)nd->hidden_solutions),
                (unsigned long long)nd->hidden,
                (unsigned long long)nd->hidden_solutions);
    fputc('\n', out);
}

/* Print the children of `id`, each line led by `prefix` and a branch. */
static void text_children(FILE *out, const tree *t, int id, char *prefix,
                          size_t len)
{
    int cols[NQ_MAX_N];
    for (int c = t->nodes[id].first; c >= 0; c = t->nodes[c].next) {
        int last = t->nodes[c].next < 0;
        fprintf(out, "%s%s", prefix, last ? "\u2514\u2500\u2500 "
                                          : "\u251c\u2500\u2500 ");
        print_cols(out, cols, node_cols(t, c, cols), t->base);
        text_marks(out, &t->nodes[c]);
        strcpy(prefix + len, last ? "    " : "\u2502   ");
        text_children(out, t, c, prefix, len + strlen(prefix + len));
        prefix[len] = '\0';
    }
}

static void print_text(FILE *out, const tree *t)
{
    char prefix[8 * (NQ_MAX_N + 2)] = "";
    fputs(_("(empty board)"), out);
    text_marks(out, &t->nodes[0]);
    text_children(out, t, 0, prefix, 0);
}

/* ---- Graphviz ---- */

/* A node's label: its board so far for small N, else its columns. */
static void dot_label(FILE *out, const tree *t, int id)
{
    int cols[NQ_MAX_N], k = node_cols(t, id, cols);
    if (k == 0)
        fputs("start", out);
    for (int r = 0; r < k && t->n <= 12; r++) {
        for (int c = 0; c < t->n; c++)
            fputc(c == cols[r] ? 'Q' : '.', out);
        fputs("\\l", out);
    }
    if (t->n > 12)
        print_cols(out, cols, k, t->base);
    if (t->nodes[id].hidden)
        fprintf(out, "\\n+%llu below\\n%llu solutions\\n",
                (unsigned long long)t->nodes[id].hidden,
                (unsigned long long)t->nodes[id].hidden_solutions);
}

static const char *dot_fill(unsigned marks)
{
    return marks & MARK_SOLUTION ? "palegreen"
         : marks & MARK_DEAD ? "mistyrose"
         : marks & MARK_FAILED ? "lightgray" : "white";
}

static void print_dot(FILE *out, const tree *t, const char *engine)
{
    fprintf(out, "digraph nqueens_tree {\n  label=\"%s search tree, N=%d: ",
            engine, t->n);
    print_summary(out, t, "\";\n", 0);
    fputs("  labelloc=t;\n"
          "  node [shape=box, style=filled, fontname=\"monospace\"];\n", out);
    for (int id = 0; id < t->count; id++) {
        fprintf(out, "  n%d [fillcolor=%s, label=\"", id,
                dot_fill(t->nodes[id].marks));
        dot_label(out, t, id);
        fputs("\"];\n", out);
        if (t->nodes[id].parent >= 0)
            fprintf(out, "  n%d -> n%d;\n", t->nodes[id].parent, id);
    }
    fputs("}\n", out);
}

/* ---- JSON ---- */

static void json_node(FILE *out, const tree *t, int id)
{
    const tree_node *nd = &t->nodes[id];
    int cols[NQ_MAX_N], k = node_cols(t, id, cols);
    fprintf(out, "{\"type\":\"node\",\"id\":%d,\"parent\":", id);
    fprintf(out, nd->parent >= 0 ? "%d" : "null", nd->parent);
    fprintf(out, ",\"depth\":%d,\"queens\":[", nd->depth);
    for (int i = 0; i < k; i++)
        fprintf(out, i ? ",%d" : "%d", cols[i]);
    fprintf(out, "],\"solution\":%s,\"dead_end\":%s,\"failed\":%s,"
            "\"folded\":%llu,\"folded_solutions\":%llu}\n",
            nd->marks & MARK_SOLUTION ? "true" : "false",
            nd->marks & MARK_DEAD ? "true" : "false",
            nd->marks & MARK_FAILED ? "true" : "false",
            (unsigned long long)nd->hidden,
            (unsigned long long)nd->hidden_solutions);
}

static void print_json(FILE *out, const tree *t, const char *engine)
{
    for (int id = 0; id < t->count; id++)
        json_node(out, t, id);
    fprintf(out, "{\"type\":\"summary\",\"n\":%d,\"engine\":", t->n);
    cli_json_string(out, engine);
    fprintf(out, ",\"nodes\":%llu,\"solutions\":%llu,\"dead_ends\":%llu,"
            "\"failed\":%llu,\"drawn\":%d,\"max_depth\":%d}\n",
            (unsigned long long)t->placed + 1,
            (unsigned long long)t->solutions,
            (unsigned long long)t->dead_ends, (unsigned long long)t->failed,
            t->count, t->max_depth < t->n ? t->max_depth : t->n);
}

/* Graphviz's dot on PATH, for --format svg. */
static int have_dot(void)
{
    const char *path = getenv("PATH");
    char file[4096];
    while (path && *path) {
        size_t len = strcspn(path, ":");
        if (len > 0 && len < sizeof file - 5) {
            memcpy(file, path, len);
            strcpy(file + len, "/dot");
            if (access(file, X_OK) == 0)
                return 1;
        }
        path += len + (path[len] == ':');
    }
    return 0;
}

/* Pipe the DOT text through `dot -Tsvg` to stdout. */
static int print_svg(const tree *t, const char *engine)
{
    signal(SIGPIPE, SIG_IGN); /* a failing dot is reported, not fatal */
    FILE *p = popen("dot -Tsvg", "w");
    if (!p)
        return cli_error(CLI_FAIL, "tree: cannot run Graphviz's dot");
    print_dot(p, t, engine);
    int werr = ferror(p), status = pclose(p);
    if (werr || status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return cli_error(CLI_FAIL, "tree: Graphviz's dot failed to draw "
                         "the tree");
    return CLI_OK;
}

/* ---- the command ---- */

/* Walk the engine and build the tree; prints any error. */
static int build_tree(tree *t, const nq_request *req)
{
    t->lv[0] = (tree_level){add_node(t, -1, -1), 0, 0, 0};
    nq_status st = nq_walk_search(req, on_tree_event, t);
    if (t->broken)
        return cli_error(CLI_FAIL, "tree %d: engine '%s' does not walk row "
                         "by row", req->n, req->engine);
    if (t->too_big)
        return cli_error(CLI_FAIL, "tree %d: more than %d nodes to draw; "
                         "fold the deeper levels with --depth D", req->n,
                         TREE_MAX_DRAWN);
    if (st == NQ_ERR_STOPPED)
        return cli_error(CLI_FAIL, "tree %d: the %s search passes %llu "
                         "nodes, too many to walk; try a smaller N", req->n,
                         req->engine, TREE_MAX_WALKED);
    if (st != NQ_OK)
        return cli_error(CLI_FAIL, "tree %d: %s", req->n, nq_strerror(st));
    return CLI_OK;
}

static int draw_tree(const tree *t, const char *engine, const char *format)
{
    if (strcmp(format, "svg") == 0)
        return print_svg(t, engine);
    if (strcmp(format, "dot") == 0) {
        print_dot(stdout, t, engine);
    } else if (strcmp(format, "json") == 0) {
        print_json(stdout, t, engine);
    } else {
        printf(t->base ? _("%s search tree for N=%d (each node: the columns "
                           "of its queens, row 1 first, counted from 1)\n")
                       : _("%s search tree for N=%d (each node: the columns "
                           "of its queens, row 0 first)\n"), engine, t->n);
        print_text(stdout, t);
        print_summary(stdout, t, "\n", 1);
    }
    if (fflush(stdout) != 0)
        return cli_error(CLI_FAIL, "tree: cannot write the output");
    return CLI_OK;
}

int cmd_tree(int argc, char **argv)
{
    const char *engine = "backtrack", *format = NULL, *depth = NULL;
    int iterative = 0, json = 0, one_based = 0, n, hi, rc;
    uint64_t d = NQ_MAX_N;
    const cli_spec specs[] = {
        {.name = "--engine", .value = &engine, .arg = "NAME",
         .help = N_("the engine whose tree to draw (default: backtrack), to "
                    "see how much of it each prunes:\n{events}")},
        {.name = "--format", .value = &format, .arg = "F",
         .help = N_("text (default), dot (Graphviz), svg (runs Graphviz's dot, "
                    "which must be installed), or json")},
        {.name = "--json", .flag = &json,
         .help = N_("one JSON object per line: each node (type \"node\": id, "
                    "parent, depth, queens, solution, dead_end, failed, "
                    "folded, folded_solutions), then the totals (type "
                    "\"summary\")")},
        {.name = "--depth", .value = &depth, .arg = "D",
         .help = N_("draw levels 0..D only; deeper nodes are counted in their "
                    "ancestor at level D")},
        {.name = "--iterative", .flag = &iterative,
         .help = N_("walk the engine's explicit-stack form (same tree)")},
        {.name = "--one-based", .flag = &one_based,
         .help = N_("number columns from 1 (text, dot, svg), as solve does; "
                    "JSON counts from 0 whatever it says")},
        {0},
    };
    rc = cli_parse_board("tree", tree_help, specs, argc, argv, 0, &n, &hi);
    if (rc != CLI_OK)
        return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
    if ((rc = cli_json_format("tree", json, &format, "text")) != CLI_OK)
        return rc;
    if (strcmp(format, "text") && strcmp(format, "dot") &&
        strcmp(format, "svg") && strcmp(format, "json"))
        return cli_error(CLI_USAGE, "tree: unknown format '%s' (formats: "
                         "text, dot, svg, json)", format);
    if (depth && cli_parse_uint(depth, 0, NQ_MAX_N, &d) != 0)
        return cli_error(CLI_USAGE, "--depth takes a whole number from 0 "
                         "to %d, not '%s'", NQ_MAX_N, depth);
    if ((rc = cli_check_engine(engine, n, n, NQ_CAP_EVENTS)) != CLI_OK)
        return rc;
    if (strcmp(format, "svg") == 0 && !have_dot())
        return cli_error(CLI_FAIL, "tree: --format svg needs Graphviz's "
                         "'dot' on PATH (install graphviz, or use --format "
                         "dot)");
    tree t = {.n = n, .max_depth = (int)d, .base = one_based};
    nq_request req = {.size = sizeof req, .n = n, .engine = engine,
                      .iterative = iterative};
    rc = build_tree(&t, &req);
    if (rc == CLI_OK)
        rc = draw_tree(&t, engine, format);
    free(t.nodes);
    return rc;
}
