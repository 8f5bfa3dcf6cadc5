/*
 * xml.c - a small well-formedness checker for the SVG the CLI writes.
 *
 * Not a full XML parser: enough of XML 1.0 to refuse what a browser would
 * refuse in our output: tags that do not nest or match, a second root,
 * attributes unquoted, repeated or with a raw '<', stray '<' or '&' in
 * text, unknown entities, unterminated comments, declarations or CDATA.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

enum { MAX_DEPTH = 256, MAX_NAME = 64, MAX_ATTRS = 32 };

typedef struct {
    const char *p, *start;
    char stack[MAX_DEPTH][MAX_NAME];
    int depth, roots;
    char *why;
    size_t size;
} xml;

static int bad(xml *x, const char *what)
{
    snprintf(x->why, x->size, "%s at offset %ld", what, (long)(x->p - x->start));
    return -1;
}

static int name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == ':' || (unsigned char)c >= 0x80;
}

static int name_char(char c)
{
    return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static int space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A name into buf; 0 if there is none or it is too long. */
static int read_name(xml *x, char *buf)
{
    int k = 0;
    if (!name_start(*x->p))
        return 0;
    while (name_char(*x->p) && k < MAX_NAME - 1)
        buf[k++] = *x->p++;
    buf[k] = '\0';
    return !name_char(*x->p);
}

/* An entity or character reference after '&'. */
static int entity(xml *x)
{
    static const char *const named[] = {"lt;", "gt;", "amp;", "quot;",
                                        "apos;"};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strncmp(x->p, named[i], strlen(named[i])) == 0) {
            x->p += strlen(named[i]);
            return 0;
        }
    if (*x->p++ != '#')
        return -1;
    int hex = *x->p == 'x', digits = 0;
    x->p += hex;
    while ((*x->p >= '0' && *x->p <= '9') ||
           (hex && ((*x->p >= 'a' && *x->p <= 'f') ||
                    (*x->p >= 'A' && *x->p <= 'F'))))
        x->p++, digits++;
    return digits && *x->p++ == ';' ? 0 : -1;
}

static int skip_past(xml *x, const char *end, const char *what)
{
    const char *e = strstr(x->p, end);
    if (!e)
        return bad(x, what);
    x->p = e + strlen(end);
    return 0;
}

static int attributes(xml *x)
{
    char names[MAX_ATTRS][MAX_NAME];
    int count = 0;
    for (;;) {
        int sp = space(*x->p);
        while (space(*x->p))
            x->p++;
        if (*x->p == '>' || *x->p == '/')
            return 0;
        if (!sp || count == MAX_ATTRS || !read_name(x, names[count]))
            return bad(x, "bad attribute");
        for (int i = 0; i < count; i++)
            if (strcmp(names[i], names[count]) == 0)
                return bad(x, "repeated attribute");
        count++;
        if (*x->p++ != '=')
            return bad(x, "attribute without a value");
        char q = *x->p++;
        if (q != '"' && q != '\'')
            return bad(x, "unquoted attribute value");
        while (*x->p && *x->p != q) {
            if (*x->p == '<')
                return bad(x, "'<' in an attribute value");
            if (*x->p++ == '&' && entity(x) != 0)
                return bad(x, "bad entity in an attribute value");
        }
        if (*x->p++ != q)
            return bad(x, "unterminated attribute value");
    }
}

static int open_tag(xml *x)
{
    char name[MAX_NAME];
    if (x->depth == 0 && x->roots++)
        return bad(x, "a second root element");
    if (!read_name(x, name) || attributes(x) != 0)
        return bad(x, "bad tag");
    if (*x->p == '/') {
        if (x->p[1] != '>')
            return bad(x, "bad empty tag");
        x->p += 2;
        return 0;
    }
    x->p++;
    if (x->depth == MAX_DEPTH)
        return bad(x, "too deep");
    strcpy(x->stack[x->depth++], name);
    return 0;
}

static int close_tag(xml *x)
{
    char name[MAX_NAME];
    if (!read_name(x, name))
        return bad(x, "bad closing tag");
    while (space(*x->p))
        x->p++;
    if (*x->p++ != '>' || x->depth == 0 ||
        strcmp(x->stack[--x->depth], name) != 0)
        return bad(x, "closing tag does not match");
    return 0;
}

/* DOCTYPE, with an internal subset in brackets. */
static int doctype(xml *x)
{
    int bracket = 0;
    for (; *x->p; x->p++) {
        bracket += (*x->p == '[') - (*x->p == ']');
        if (*x->p == '>' && bracket == 0) {
            x->p++;
            return 0;
        }
    }
    return bad(x, "unterminated DOCTYPE");
}

static int markup(xml *x)
{
    if (strncmp(x->p, "<?", 2) == 0)
        return skip_past(x, "?>", "unterminated declaration");
    if (strncmp(x->p, "<!--", 4) == 0)
        return skip_past(x, "-->", "unterminated comment");
    if (strncmp(x->p, "<![CDATA[", 9) == 0)
        return x->depth ? skip_past(x, "]]>", "unterminated CDATA")
                        : bad(x, "CDATA outside the root");
    if (strncmp(x->p, "<!DOCTYPE", 9) == 0)
        return x->roots ? bad(x, "DOCTYPE after the root") : doctype(x);
    x->p++;
    if (*x->p == '/') {
        x->p++;
        return close_tag(x);
    }
    return open_tag(x);
}

int t_xml_check(const char *text, char *why, size_t size)
{
    xml x = {.p = text, .start = text, .why = why, .size = size};
    while (*x.p) {
        if (*x.p == '<') {
            if (markup(&x) != 0)
                return -1;
        } else if (*x.p == '&') {
            x.p++;
            if (entity(&x) != 0)
                return bad(&x, "bad entity");
        } else if (x.depth == 0 && !space(*x.p)) {
            return bad(&x, "text outside the root");
        } else {
            x.p++;
        }
    }
    if (x.depth || x.roots != 1)
        return bad(&x, x.depth ? "unclosed element" : "no root element");
    return 0;
}
