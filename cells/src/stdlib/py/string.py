"""string, as the lab has it: the character constants, capwords and Template."""

whitespace = " \t\n\r\x0b\x0c"
ascii_lowercase = "abcdefghijklmnopqrstuvwxyz"
ascii_uppercase = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ascii_letters = ascii_lowercase + ascii_uppercase
digits = "0123456789"
hexdigits = digits + "abcdef" + "ABCDEF"
octdigits = "01234567"
punctuation = r"""!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"""
printable = digits + ascii_letters + punctuation + whitespace


def capwords(s, sep=None):
    return (sep or " ").join(map(str.capitalize, s.split(sep)))


def _is_identifier_char(c, first):
    return c == "_" or c in ascii_letters or (not first and c in digits)


class Template:
    delimiter = "$"

    def __init__(self, template):
        self.template = template

    def _render(self, mapping, safe):
        out = []
        s = self.template
        i = 0
        n = len(s)
        while i < n:
            c = s[i]
            if c != "$":
                out.append(c)
                i += 1
                continue
            if i + 1 < n and s[i + 1] == "$":
                out.append("$")
                i += 2
                continue
            braced = i + 1 < n and s[i + 1] == "{"
            j = i + 2 if braced else i + 1
            k = j
            while k < n and _is_identifier_char(s[k], k == j):
                k += 1
            name = s[j:k]
            if braced and (k >= n or s[k] != "}"):
                name = ""
            if not name:
                if safe:
                    out.append("$")
                    i += 1
                    continue
                line = s[:i].count("\n") + 1
                column = i - (s.rfind("\n", 0, i) + 1) + 1
                raise ValueError(
                    f"Invalid placeholder in string: line {line}, col {column}")
            end = k + 1 if braced else k
            if name in mapping:
                out.append(str(mapping[name]))
            elif safe:
                out.append(s[i:end])
            else:
                raise KeyError(name)
            i = end
        return "".join(out)

    def substitute(self, mapping=None, **kws):
        values = dict(mapping or {})
        values.update(kws)
        return self._render(values, False)

    def safe_substitute(self, mapping=None, **kws):
        values = dict(mapping or {})
        values.update(kws)
        return self._render(values, True)
