/*
 * errors.c - how the programs say what went wrong: one line on stderr,
 * "nqueens: <message>", with what the message quotes cleaned (control
 * characters and bytes that are not UTF-8 escaped, a very long one cut in
 * the middle); the library's statuses in words; a write to stdout that
 * failed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The length of the valid UTF-8 sequence at s (at most len bytes), or 0:
 * a stray continuation byte, a truncated or overlong sequence, a
 * surrogate or a code point past U+10FFFF is not one. */
static int utf8_length(const unsigned char *s, int len)
{
    int k = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (k == 0 || s[0] > 0xf4 || k > len)
        return 0;
    for (int i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((k == 3 && s[0] == 0xe0 && s[1] < 0xa0) ||   /* overlong */
        (k == 3 && s[0] == 0xed && s[1] >= 0xa0) ||  /* surrogate */
        (k == 4 && s[0] == 0xf0 && s[1] < 0x90) ||   /* overlong */
        (k == 4 && s[0] == 0xf4 && s[1] >= 0x90))    /* past U+10FFFF */
        return 0;
    return k;
}

/* The characters of a message from i on: one at a time, control
 * characters and bytes that are not UTF-8 escaped, so that an argument
 * holding a newline cannot split the line, nor one in another encoding
 * garble the terminal.  Returns the bytes used. */
static int put_clean(const char *msg, int i, int len)
{
    const unsigned char *s = (const unsigned char *)msg + i;
    int k = s[0] >= 0x80 ? utf8_length(s, len - i) : 1;
    if (k > 1 || (s[0] >= 0x20 && s[0] < 0x7f)) {
        fwrite(s, 1, (size_t)k, stderr);
        return k;
    }
    fprintf(stderr, s[0] == '\n' ? "\\n" : s[0] == '\t' ? "\\t" : "\\x%02x",
            s[0]);
    return 1;
}

/* Messages past this keep their start and end (the reason comes last). */
enum { ERROR_HEAD = 240, ERROR_TAIL = 200 };

/* The format is translated here, the one place errors are said:
 * xgettext takes cli_error's second argument as a message (make pot). */
int cli_error(int code, const char *fmt, ...)
{
    va_list ap;
    fmt = gettext(fmt);
    char small[512], *msg = small;
    va_start(ap, fmt);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (len >= (int)sizeof small && (msg = malloc((size_t)len + 1))) {
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    len = msg == small && len >= (int)sizeof small ? (int)sizeof small - 1 : len;
    cli_clear_progress();
    fflush(stdout); /* what was printed before the error comes before it */
    fprintf(stderr, "%s: ", cli_program);
    for (int i = 0; i < len;) {
        if (len > ERROR_HEAD + ERROR_TAIL && i >= ERROR_HEAD &&
            i < len - ERROR_TAIL) {
            fputs(" [...] ", stderr);
            i = len - ERROR_TAIL;
            while (i < len && ((unsigned char)msg[i] & 0xc0) == 0x80)
                i++; /* not in the middle of a character */
        }
        i += put_clean(msg, i, len);
    }
    fputc('\n', stderr);
    if (msg != small)
        free(msg);
    return code;
}

int cli_finish_output(int rc)
{
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == CLI_OK)
        return cli_error(CLI_FAIL, "cannot write the output: %s",
                         strerror(errno ? errno : EIO));
    return rc;
}

const char *cli_strerror(nq_status st, const char *words, char *buf,
                         size_t size)
{
    if (words && words[0])
        snprintf(buf, size, "%s (%s)", nq_strerror(st), words);
    else
        snprintf(buf, size, "%s", nq_strerror(st));
    return buf;
}
