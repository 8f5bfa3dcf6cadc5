/*
 * i18n.c - the catalogues found, the locale taken from the environment,
 * and text measured in terminal columns.
 *
 * The catalogues are looked for beside the program that runs, found
 * through /proc/self/exe: an uninstalled build's in its own directory
 * (build/nqueens: build/locale), an installed one's in ../share/locale
 * (PREFIX/bin/nqueens: PREFIX/share/locale).  Relative, not a path
 * compiled in, so that the same binary finds them in the build tree, in
 * a staged DESTDIR and wherever a package is unpacked, and a build need
 * not know its PREFIX before `make install` names it.  Without /proc,
 * gettext's default directory (the system's share/locale).
 */
#include <limits.h>
#include <locale.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"

#if NQ_NLS
/* dir + "/" + rel into buf, if that is a directory; 1 if so. */
static int locale_dir(char *buf, size_t size, const char *dir, const char *rel)
{
    struct stat st;
    size_t len = strlen(dir);
    if (len + strlen(rel) + 2 > size)
        return 0;
    memcpy(buf, dir, len);
    buf[len] = '/';
    strcpy(buf + len + 1, rel);
    return stat(buf, &st) == 0 && S_ISDIR(st.st_mode);
}

/* build/locale beside the program, else ../share/locale; NULL: neither.
 * (An installed bindir may hold a program named "locale", a file.) */
static const char *find_catalogues(char *buf, size_t size)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return NULL;
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    if (locale_dir(buf, size, exe, "locale") ||
        locale_dir(buf, size, exe, "../share/locale"))
        return buf;
    return NULL;
}
#endif

void cli_nls_init(void)
{
#if NQ_NLS
    char dir[PATH_MAX + 32];
    setlocale(LC_CTYPE, "");
    setlocale(LC_MESSAGES, "");
    const char *found = find_catalogues(dir, sizeof dir);
    if (found)
        bindtextdomain("nqueens", found);
    textdomain("nqueens");
#endif
}

/* The code point of the UTF-8 sequence at s (*k: its bytes); a byte
 * that starts none counts as one character of its own. */
static unsigned code_point(const unsigned char *s, size_t left, int *k)
{
    int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 1;
    unsigned c = n == 1 ? s[0] : s[0] & (0x3f >> (n - 1));
    if ((size_t)n > left)
        n = 1;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return *k = 1, s[0];
        c = c << 6 | (s[i] & 0x3f);
    }
    *k = n;
    return c;
}

/* East Asian Wide and Fullwidth: the ranges Japanese text uses. */
static int is_wide(unsigned c)
{
    return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
           (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
           (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
           (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x20000 && c <= 0x3fffd);
}

int cli_text_width(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    int width = 0, k;
    if (len == (size_t)-1)
        len = strlen(s);
    for (size_t i = 0; i < len; i += (size_t)k)
        width += is_wide(code_point(p + i, len - i, &k)) ? 2 : 1;
    return width;
}

/* Punctuation a line must not start with, or end with. */
static int is_closing(unsigned c)
{
    static const unsigned closing[] = {0x3001, 0x3002, 0xff0c, 0xff0e,
        0xff09, 0x300d, 0x300f, 0x3011, 0xff1a, 0xff1b, 0xff01, 0xff1f,
        0x30fc, ')', ']', '}', ',', '.', ':', ';', '!', '?'};
    for (size_t i = 0; i < sizeof closing / sizeof closing[0]; i++)
        if (c == closing[i])
            return 1;
    return 0;
}

static int is_opening(unsigned c)
{
    return c == 0xff08 || c == 0x300c || c == 0x300e || c == 0x3010 ||
           c == '(' || c == '[' || c == '{';
}

size_t cli_break_at(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    int k, k2;
    for (size_t i = 0; i < len; i += (size_t)k) {
        unsigned c = code_point(p + i, len - i, &k);
        if (i + (size_t)k >= len)
            break;
        unsigned d = code_point(p + i + k, len - i - (size_t)k, &k2);
        if ((is_wide(c) || is_wide(d)) && !is_closing(d) && !is_opening(c))
            return i + (size_t)k;
    }
    return len;
}

int cli_field(const char *s, int width)
{
    int extra = (int)strlen(s) - cli_text_width(s, (size_t)-1);
    return width < 0 ? width - extra : width + extra;
}
