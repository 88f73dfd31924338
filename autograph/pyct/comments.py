"""The user's comments, carried into the generated source.

The AST has no comments, so the converters never see them; they are put back
into the unparsed text, next to the generated lines of the statements they
sat next to:

    def f(x):                            def f(x):
        # halve big values                   # halve big values
        if x > 10:  # tensor if              def if_body(x):
            x = x / 2                            x = x / 2
        return x                                 return (x,)
                                             x, = ag__.if_stmt(...)  # tensor if
                                             return x

- a comment on a line of its own goes above the first generated line of the
  next statement (at that line's indentation); one after the last statement
  goes at the end of the function;
- a comment after code goes at the end of the last generated line of the
  statement it follows (for `if`/`while`/`for`, the operator call), or on the
  `def` line for the function's own header; above the line instead when the
  line opens a multi-line string.

    found = collect(lines, def_line, end_line)        # [(user line, text, own line?)]
    source, statement_lines = attach(source, statement_lines, found)

`statement_lines` ({generated line: user line}, from the unparser) is
returned renumbered for the inserted lines.
"""

import bisect
import itertools
import re

__all__ = ["collect", "attach"]


# Strings (any prefix, triple-quoted included) or a comment; everything else
# is skipped. The text parses, so every string is terminated.
_TOKENS = re.compile(r"""
    [rRbBuUfF]{0,2}(?:\"\"\"(?:\\.|[^\\])*?\"\"\" | '''(?:\\.|[^\\])*?'''
                     | "(?:\\.|[^"\\\n])*" | '(?:\\.|[^'\\\n])*')
  | (?P<comment>\#[^\r\n]*)""", re.VERBOSE | re.DOTALL)


def collect(lines, def_line, end_line):
    """[(user line, comment text, on a line of its own)] of the comments in
    `lines` (the user's file, 1-based numbering) from the `def` line to
    `end_line`; [] when there are none.

    A regular expression finds them (strings are matched, so a `#` inside
    one is not a comment): the standard library's tokenizer, written in
    Python, would cost more than converting the function.
    """
    chunk = lines[def_line - 1:end_line]
    text = "".join(chunk)
    if "#" not in text:
        return []
    starts = list(itertools.accumulate((len(line) for line in chunk), initial=0))
    found = []
    for match in _TOKENS.finditer(text):
        if match.lastgroup == "comment":
            at = match.start()
            i = bisect.bisect_right(starts, at) - 1
            own = not text[starts[i]:at].strip()
            found.append((def_line + i, match.group().rstrip(), own))
    return found


def attach(source, statement_lines, found):
    """(source with the comments of `found` in place, renumbered statement_lines)."""
    if not found or not statement_lines:
        return source, statement_lines
    text_lines = source.split("\n")
    first, last = {}, {}
    for gen, user in sorted(statement_lines.items()):
        first.setdefault(user, gen)
        last[user] = gen
    users = sorted(first)
    def_user = statement_lines.get(1)
    above, trailing = {}, {}         # generated line -> comments
    for user, text, own in found:
        if own:
            i = bisect.bisect_left(users, user)
            gen = first[users[i]] if i < len(users) else None      # None: at the end
            above.setdefault(gen, []).append(text)
            continue
        i = bisect.bisect_right(users, user) - 1
        target = users[max(i, 0)]
        gen = 1 if target == def_user else last[target]
        if _opens_string(text_lines[gen - 1]):
            above.setdefault(gen, []).append(text)
        else:
            trailing.setdefault(gen, []).append(text)
    return _rebuild(text_lines, statement_lines, above, trailing)


def _opens_string(line):
    """The line may end inside a multi-line string (unparsed text writes real
    newlines only in triple-quoted docstrings)."""
    return '"""' in line or "'''" in line


def _rebuild(text_lines, statement_lines, above, trailing):
    out, shift = [], {}
    ending = text_lines[-1] == ""
    body = text_lines[:-1] if ending else text_lines
    for number, line in enumerate(body, 1):
        if number in above and number > 1:     # never above the `def` line
            indent = line[:len(line) - len(line.lstrip())]
            out.extend(indent + text for text in above[number])
        shift[number] = len(out) + 1
        if number in trailing:
            line = line + "".join("  " + text for text in trailing[number])
        out.append(line)
    leftover = above.get(None, []) + above.get(1, [])
    out.extend("    " + text for text in leftover)
    lines = {shift[gen]: user for gen, user in statement_lines.items()}
    return "\n".join(out) + ("\n" if ending else ""), lines
