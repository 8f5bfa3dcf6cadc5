#!/bin/sh
# plot.sh - draw bench/speed.tsv as an SVG plot: wall seconds against N
# (log scale), one line per column, for README.md.
#
#   sh bench/plot.sh [TSV [SVG]]     (default: bench/speed.tsv, doc/speed.svg)
#
# The TSV: comment lines starting '#' (those starting '# machine:' and
# '# date:' become the plot's subtitle), then a header line, N and one name
# per column, then one line per N, seconds per column, '-' where nothing
# was measured.  A column named kluev is drawn as Kluev's counter, the
# others as kernels of the fast engine.  POSIX sh and awk only; the output
# depends on the TSV alone, so a committed SVG can be checked by drawing it
# again.
set -eu
here=$(dirname "$0")
tsv=${1:-$here/speed.tsv}
svg=${2:-$here/../doc/speed.svg}
[ -r "$tsv" ] || { echo "plot.sh: cannot read $tsv" >&2; exit 2; }

awk -F '\t' '
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
function lg(v) { return log(v) / log(10) }
function px(n) { return X0 + P + (nmax == nmin ? (X1 - X0) / 2 - P : (n - nmin) * (X1 - X0 - 2 * P) / (nmax - nmin)) }
function py(v) { return Y1 - (lg(v) - dlo) * (Y1 - Y0) / (dhi - dlo) }
function label(name) { return name == "kluev" ? "Kluev\047s counter (2013)" : "fast, " name " kernel" }
/^#/ {
    if (sub(/^# machine: */, "")) machine = $0
    else if (sub(/^# date: */, "")) date = $0
    next
}
!cols {
    cols = NF
    for (c = 2; c <= NF; c++) name[c] = $c
    next
}
NF >= 2 {
    rows++
    n[rows] = $1 + 0
    for (c = 2; c <= cols; c++) {
        v[rows, c] = $c
        if ($c != "-" && $c + 0 > 0) {
            if (!seen || $c + 0 < vmin) vmin = $c + 0
            if (!seen || $c + 0 > vmax) vmax = $c + 0
            seen = 1
        }
    }
}
END {
    if (!rows || !seen) { print "plot.sh: no measurements in the TSV" > "/dev/stderr"; exit 2 }
    W = 680; H = 430; X0 = 70; X1 = 460; Y0 = 70; Y1 = 370; P = 20
    nmin = n[1]; nmax = n[1]
    for (r = 2; r <= rows; r++) { if (n[r] < nmin) nmin = n[r]; if (n[r] > nmax) nmax = n[r] }
    dlo = int(lg(vmin)); if (lg(vmin) < dlo) dlo--
    dhi = int(lg(vmax)); if (lg(vmax) > dhi) dhi++
    if (dhi == dlo) dhi++
    split("#8c8c8c #2a9d8f #1f6fb4 #c2362f #7b3fa0 #b8860b", colour, " ")

    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"13\">\n", W, H, W, H
    printf "<title>nqueens count N on 2 threads: seconds against N</title>\n"
    printf "<desc>Drawn by bench/plot.sh from bench/speed.tsv. %s, %s.</desc>\n", esc(machine), esc(date)
    printf "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", W, H
    printf "<text x=\"%d\" y=\"26\" font-size=\"16\" font-weight=\"bold\">nqueens count N, 2 threads: wall seconds (log scale)</text>\n", X0 - 50
    printf "<text x=\"%d\" y=\"46\" font-size=\"12\" fill=\"#555555\">%s, %s</text>\n", X0 - 50, esc(machine), esc(date)

    # decades: grid line and label
    for (d = dlo; d <= dhi; d++) {
        y = Y1 - (d - dlo) * (Y1 - Y0) / (dhi - dlo)
        printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n", X0, y, X1, y
        printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s s</text>\n", X0 - 8, y + 4, 10 ^ d
        # 2 and 5 times the decade, lighter
        if (d < dhi) for (m = 2; m <= 5; m += 3) {
            ym = py(m * 10 ^ d)
            printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#f0f0f0\"/>\n", X0, ym, X1, ym
        }
    }
    # N: tick and label
    for (r = 1; r <= rows; r++) {
        x = px(n[r])
        printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#dddddd\"/>\n", x, Y0, x, Y1
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x, Y1 + 20, n[r]
    }
    printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">N</text>\n", (X0 + X1) / 2, Y1 + 42
    printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888888\"/>\n", X0, Y0, X1 - X0, Y1 - Y0

    k = 0
    for (c = 2; c <= cols; c++) {
        col = name[c] == "kluev" ? "#000000" : colour[++k]
        path = ""
        for (r = 1; r <= rows; r++) if (v[r, c] != "-") path = path (path == "" ? "M" : " L") sprintf("%.1f %.1f", px(n[r]), py(v[r, c]))
        if (path != "")
            printf "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", path, col
        for (r = 1; r <= rows; r++) {
            if (v[r, c] == "-") continue
            x = px(n[r]); y = py(v[r, c])
            if (name[c] == "kluev") {
                printf "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"><title>%s, N = %d: %s s</title></rect>\n", x - 5, y - 5, col, esc(label(name[c])), n[r], v[r, c]
                printf "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">Kluev %s s</text>\n", x - 10, y - 12, v[r, c]
            } else
                printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s, N = %d: %s s</title></circle>\n", x, y, col, esc(label(name[c])), n[r], v[r, c]
        }
        ly = Y0 + 10 + (c - 2) * 24
        if (name[c] == "kluev")
            printf "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", X1 + 25, ly - 5, col
        else
            printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/><circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/>\n", X1 + 20, ly, X1 + 40, ly, col, X1 + 30, ly, col
        printf "<text x=\"%d\" y=\"%d\">%s</text>\n", X1 + 48, ly + 4, esc(label(name[c]))
    }
    printf "</svg>\n"
}' "$tsv" > "$svg.tmp" && mv "$svg.tmp" "$svg"
