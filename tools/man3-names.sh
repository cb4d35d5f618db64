#!/bin/sh
# man3-names.sh MODE FILE... - what the gk man3 pages and headers declare.
#   names  PAGE...    the functions (and the data symbol) whose prototypes a
#                     page's SYNOPSIS gives, one per line: the names that get
#                     a link page (`make install`) and that tests/test_man3.sh
#                     compares with the headers
#   protos PAGE...    those prototypes, "NAME PROTOTYPE" per line, the
#                     prototype as the SYNOPSIS renders it with all white
#                     space removed
#   header HEADER...  the same "NAME PROTOTYPE" lines for the GK_API
#                     declarations of C headers (comments removed), so that a
#                     page's SYNOPSIS can be compared with the header text
# A SYNOPSIS prototype is the text of consecutive font-macro lines (.B, .BI,
# ...) up to the one whose text ends with ';'; lines starting with '#'
# (includes, macros) and other requests end the text read so far.
set -u
mode=${1:-}
[ $# -ge 2 ] || { echo "usage: $0 names|protos|header FILE..." >&2; exit 2; }
shift
case $mode in
names|protos)
  awk -v mode="$mode" '
    # the text of a roff font-macro line: the arguments, unquoted ("" inside
    # quotes is a quote), joined as the macro joins them (.B: with spaces,
    # the alternating macros: without)
    function macro_text(line,   m, rest, out, arg, c, i, q, args, n) {
      m = line; sub(/[ \t].*/, "", m)
      rest = substr(line, length(m) + 1)
      n = 0; i = 1
      while (i <= length(rest)) {
        c = substr(rest, i, 1)
        if (c == " " || c == "\t") { i++; continue }
        arg = ""
        if (c == "\"") {
          i++
          while (i <= length(rest)) {
            c = substr(rest, i, 1)
            if (c == "\"") {
              if (substr(rest, i + 1, 1) == "\"") { arg = arg "\""; i += 2; continue }
              i++; break
            }
            arg = arg c; i++
          }
        } else {
          while (i <= length(rest) && (c = substr(rest, i, 1)) != " " && c != "\t") { arg = arg c; i++ }
        }
        args[++n] = arg
      }
      out = ""
      for (q = 1; q <= n; q++) out = out (m == ".B" || m == ".I" ? (q > 1 ? " " : "") : "") args[q]
      gsub(/\\-/, "-", out); gsub(/\\e/, "\\", out); gsub(/\\&/, "", out)
      return out
    }
    function emit(text,   pre, name) {
      if (text !~ /gk_[A-Za-z0-9_]*[[(]/) return
      pre = text; sub(/[[(].*/, "", pre)
      name = pre; sub(/.*[^A-Za-z0-9_]/, "", name)
      if (mode == "names") print name
      else { gsub(/[ \t]/, "", text); print name, text }
    }
    FNR == 1 { syn = 0; text = "" }
    /^\.SH/ { syn = ($0 ~ /^\.SH +"?SYNOPSIS"?/); text = ""; next }
    !syn { next }
    /^\.(B|BI|BR|IB|RB|I|IR|RI)([ \t]|$)/ {
      t = macro_text($0)
      if (t ~ /^#/) { text = ""; next }
      text = text (text == "" ? "" : " ") t
      if (text ~ /;[ \t]*$/) { emit(text); text = "" }
      next
    }
    { text = "" }
  ' "$@"
  ;;
header)
  # comments removed (they may span lines and mention GK_API), then every
  # declaration from GK_API to its ';'
  awk '
    { buf = buf $0 "\n" }
    END {
      out = ""; i = 1; n = length(buf)
      while (i <= n) {
        if (substr(buf, i, 2) == "/*") { j = index(substr(buf, i + 2), "*/"); i = j ? i + j + 3 : n + 1; out = out " "; continue }
        if (substr(buf, i, 2) == "//") { while (i <= n && substr(buf, i, 1) != "\n") i++; continue }
        out = out substr(buf, i, 1); i++
      }
      gsub(/\n/, " ", out)
      k = split(out, part, /GK_API[ \t]+/)
      for (q = 2; q <= k; q++) {
        decl = part[q]; sub(/;.*/, ";", decl)
        if (decl !~ /;$/) continue
        pre = decl; sub(/[[(].*/, "", pre)
        name = pre; sub(/.*[^A-Za-z0-9_]/, "", name)
        if (name !~ /^gk_/) continue
        gsub(/[ \t]/, "", decl)
        print name, decl
      }
    }
  ' "$@"
  ;;
*) echo "usage: $0 names|protos|header FILE..." >&2; exit 2 ;;
esac
