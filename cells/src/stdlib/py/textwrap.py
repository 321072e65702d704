"""textwrap, as the lab has it: wrap, fill, shorten, dedent and indent (words split on
whitespace, long words broken, as Python's defaults do)."""


def _words(text):
    return " ".join(text.split()).split(" ") if text.split() else []


def wrap(text, width=70, *, initial_indent="", subsequent_indent="", break_long_words=True,
         max_lines=None, placeholder=" [...]", **kwargs):
    if width <= 0:
        raise ValueError(f"invalid width {width!r} (must be > 0)")
    lines = []
    line = initial_indent
    empty = True
    for word in _words(text):
        indent = initial_indent if not lines else subsequent_indent
        if empty:
            candidate = indent + word
        else:
            candidate = line + " " + word
        if len(candidate) <= width:
            line = candidate
            empty = False
            continue
        if not empty:
            lines.append(line)
            indent = subsequent_indent
            line = indent
            empty = True
        while break_long_words and len(indent) + len(word) > width:
            room = max(width - len(indent), 1)
            lines.append(indent + word[:room])
            word = word[room:]
            indent = subsequent_indent
        line = indent + word
        empty = False
    if not empty:
        lines.append(line)
    if max_lines is not None and len(lines) > max_lines:
        kept = lines[:max_lines]
        last = kept[-1]
        while last and len(last + placeholder) > width:
            cut = last.rfind(" ")
            last = last[:cut] if cut > 0 else ""
        kept[-1] = (last + placeholder) if last else placeholder.lstrip()
        lines = kept
    return lines


def fill(text, width=70, **kwargs):
    return "\n".join(wrap(text, width, **kwargs))


def shorten(text, width, *, placeholder=" [...]", **kwargs):
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    return fill(text, width, max_lines=1, placeholder=placeholder)


def dedent(text):
    lines = text.split("\n")
    margin = None
    for line in lines:
        stripped = line.lstrip(" \t")
        if not stripped:
            continue
        indent = line[:len(line) - len(stripped)]
        if margin is None:
            margin = indent
        else:
            common = 0
            while common < min(len(margin), len(indent)) and margin[common] == indent[common]:
                common += 1
            margin = margin[:common]
    out = []
    for line in lines:
        if not line.strip(" \t"):
            out.append("")
        elif margin:
            out.append(line[len(margin):])
        else:
            out.append(line)
    return "\n".join(out)


def indent(text, prefix, predicate=None):
    if predicate is None:
        def predicate(line):
            return line.strip()
    return "".join(prefix + line if predicate(line) else line
                   for line in text.splitlines(True))
