/*
 * i18n.h - the command line's words in the user's language (GNU gettext:
 * LANG, LC_MESSAGES, LANGUAGE), and the width of text on a terminal.
 *
 * Only programs/ translates: the library never prints.  gettext's
 * functions are glibc's own; where <libintl.h> is missing (or NQ_NLS=0)
 * every message stays English through the no-op forms below, so the core
 * builds with gcc, make and pthreads alone.  Machine output (JSON, CSV,
 * DOT, the trace page's data) is never passed through _().
 */
#ifndef NQ_I18N_H
#define NQ_I18N_H

#include <stddef.h>

#ifndef NQ_NLS
#if defined(__has_include)
#if __has_include(<libintl.h>)
#define NQ_NLS 1
#endif
#endif
#endif
#if defined(NQ_NLS) && NQ_NLS
#include <libintl.h>
#else
#undef NQ_NLS
#define NQ_NLS 0
#define gettext(s) ((char *)(s))
#define ngettext(one, many, k) ((char *)((k) == 1 ? (one) : (many)))
#endif

/* A message to translate where it is printed; N_ marks one that is
 * stored (a table, a help page) and translated when printed (so the man
 * page, made from the same tables, stays English). */
#define _(s) gettext(s)
#define N_(s) s

/* Once, before the first message: the locale's messages and character
 * type from the environment (LC_MESSAGES, LC_CTYPE: never LC_NUMERIC, so
 * numbers print as in C), and where the catalogues lie.  A locale that is
 * not installed leaves English, silently. */
void cli_nls_init(void);
/* The columns s takes on a terminal: a wide (CJK) character two, any
 * other character one; len bytes of it (or up to its NUL if len is
 * (size_t)-1). */
int cli_text_width(const char *s, size_t len);
/* The printf field width that gives s `width` columns ("%*s" right,
 * "%-*s" left with a negative width): bytes and columns differ for
 * Japanese, and printf counts bytes. */
int cli_field(const char *s, int width);
/* The bytes of s (len of them) before the first place a line may break
 * inside it: beside a wide character, but never before closing
 * punctuation nor after opening punctuation; len if there is none.  So a
 * help text in Japanese, which has no blanks, wraps as one in English. */
size_t cli_break_at(const char *s, size_t len);

/* s translated where `words` (text for people), else as written: the
 * texts a machine format quotes (trace's JSON "text", tree's DOT label)
 * stay English whatever the locale.  xgettext: --keyword=cli_words:2,
 * --keyword=cli_nwords:2,3. */
static inline const char *cli_words(int words, const char *s)
{
    return words ? gettext(s) : s;
}
static inline const char *cli_nwords(int words, const char *one,
                                     const char *many, unsigned long long k)
{
    return words ? ngettext(one, many, (unsigned long)k) : k == 1 ? one
                                                                  : many;
}

#endif
