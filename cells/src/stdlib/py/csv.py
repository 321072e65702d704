"""csv, as the lab has it: `reader`, `writer`, `DictReader` and `DictWriter` with CPython's
dialect rules (delimiter, quotechar, doublequote, escapechar, quoting, skipinitialspace,
lineterminator, strict), quoted fields across lines, and the `excel` and `excel-tab`
dialects."""

QUOTE_MINIMAL, QUOTE_ALL, QUOTE_NONNUMERIC, QUOTE_NONE = 0, 1, 2, 3


class Error(Exception):
    pass


class Dialect:
    delimiter = ","
    quotechar = '"'
    escapechar = None
    doublequote = True
    skipinitialspace = False
    lineterminator = "\r\n"
    quoting = QUOTE_MINIMAL
    strict = False


class excel(Dialect):
    pass


class excel_tab(excel):
    delimiter = "\t"


class unix_dialect(Dialect):
    lineterminator = "\n"
    quoting = QUOTE_ALL


_dialects = {"excel": excel, "excel-tab": excel_tab, "unix": unix_dialect}


def register_dialect(name, dialect=None, **fmtparams):
    _dialects[name] = _Format(dialect or excel, fmtparams)


def get_dialect(name):
    try:
        return _dialects[name]
    except KeyError:
        raise Error("unknown dialect")


def list_dialects():
    return list(_dialects)


class _Format:
    """A dialect with keyword overrides, checked as CPython checks them."""

    def __init__(self, dialect, fmtparams):
        if isinstance(dialect, str):
            dialect = get_dialect(dialect)
        for key in ("delimiter", "quotechar", "escapechar", "doublequote", "skipinitialspace",
                    "lineterminator", "quoting", "strict"):
            setattr(self, key, fmtparams.pop(key, getattr(dialect, key)))
        if fmtparams:
            name = next(iter(fmtparams))
            raise TypeError(f"'{name}' is an invalid keyword argument for this function")
        if not isinstance(self.delimiter, str) or len(self.delimiter) != 1:
            raise TypeError('"delimiter" must be a 1-character string')
        if self.quoting != QUOTE_NONE and self.quotechar is None:
            raise TypeError("quotechar must be set if quoting enabled")


class _Reader:
    def __init__(self, lines, dialect, fmtparams):
        self._lines = iter(lines)
        self.dialect = _Format(dialect, fmtparams)
        self.line_num = 0

    def __iter__(self):
        return self

    def __next__(self):
        d = self.dialect
        row, field = [], []
        quoted = False      # inside a quoted field
        was_quoted = False  # the field began with a quote
        line = None
        while True:
            try:
                line = next(self._lines)
            except StopIteration:
                # The data ended inside a quoted field: the row so far (strict: an error).
                if not quoted:
                    raise
                if d.strict:
                    raise Error("unexpected end of data") from None
                break
            self.line_num += 1
            i, n = 0, len(line)
            at_start = not field and not quoted
            if at_start and d.skipinitialspace:
                while i < n and line[i] == " ":
                    i += 1
            while i < n:
                c = line[i]
                if quoted:
                    if c == d.escapechar and i + 1 < n:
                        field.append(line[i + 1])
                        i += 2
                        continue
                    if c == d.quotechar:
                        if d.doublequote and i + 1 < n and line[i + 1] == d.quotechar:
                            field.append(c)
                            i += 2
                            continue
                        quoted = False
                        i += 1
                        continue
                    field.append(c)
                    i += 1
                    continue
                if c == d.delimiter:
                    row.append(self._value("".join(field), was_quoted))
                    field, was_quoted, at_start = [], False, True
                    i += 1
                    if d.skipinitialspace:
                        while i < n and line[i] == " ":
                            i += 1
                    continue
                if c in "\r\n":
                    i += 1
                    continue
                if c == d.quotechar and at_start and d.quoting != QUOTE_NONE:
                    quoted = was_quoted = True
                    at_start = False
                    i += 1
                    continue
                if c == d.escapechar and i + 1 < n:
                    field.append(line[i + 1])
                    i += 2
                    continue
                if c == d.quotechar and was_quoted and d.strict:
                    raise Error(f"'{d.delimiter}' expected after '{d.quotechar}'")
                field.append(c)
                at_start = False
                i += 1
            if not quoted:
                break
            # A quoted field goes on to the next line (its line ending is in the field).
        if not row and not field and not was_quoted and not line.strip("\r\n"):
            return []
        row.append(self._value("".join(field), was_quoted))
        return row

    def _value(self, text, was_quoted):
        if self.dialect.quoting == QUOTE_NONNUMERIC and not was_quoted:
            return float(text)
        return text


def reader(csvfile, dialect="excel", **fmtparams):
    return _Reader(csvfile, dialect, fmtparams)


class _Writer:
    def __init__(self, f, dialect, fmtparams):
        self._f = f
        self.dialect = _Format(dialect, fmtparams)

    def _field(self, value):
        d = self.dialect
        if value is None:
            text = ""
        elif isinstance(value, float):
            text = repr(value)
        else:
            text = str(value)
        numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
        if d.quoting == QUOTE_ALL or (d.quoting == QUOTE_NONNUMERIC and not numeric):
            quote = True
        elif d.quoting == QUOTE_NONE:
            quote = False
        else:
            quote = any(c in text for c in (d.delimiter, d.quotechar, "\r", "\n")) or (
                text[:1] == " " and d.skipinitialspace)
        if d.quoting == QUOTE_NONE:
            special = [d.delimiter, "\r", "\n"] + ([d.quotechar] if d.quotechar else [])
            for c in special:
                if c in text:
                    if d.escapechar is None:
                        raise Error("need to escape, but no escapechar set")
                    text = text.replace(c, d.escapechar + c)
            return text
        if d.quotechar in text:
            if d.doublequote:
                text = text.replace(d.quotechar, d.quotechar * 2)
            elif d.escapechar is not None:
                text = text.replace(d.quotechar, d.escapechar + d.quotechar)
            else:
                raise Error("need to escape, but no escapechar set")
        return f"{d.quotechar}{text}{d.quotechar}" if quote else text

    def writerow(self, row):
        try:
            fields = list(row)
        except TypeError:
            raise Error(f"iterable expected, not {type(row).__name__}")
        if len(fields) == 1 and fields[0] in ("", None):
            if self.dialect.quoting == QUOTE_NONE:
                raise Error("single empty field record must be quoted")
            line = self.dialect.quotechar * 2
        else:
            line = self.dialect.delimiter.join(self._field(v) for v in fields)
        return self._f.write(line + self.dialect.lineterminator)

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)


def writer(csvfile, dialect="excel", **fmtparams):
    return _Writer(csvfile, dialect, fmtparams)


class DictReader:
    def __init__(self, f, fieldnames=None, restkey=None, restval=None, dialect="excel",
                 *args, **kwds):
        self._fieldnames = fieldnames
        self.restkey = restkey
        self.restval = restval
        self.reader = reader(f, dialect, *args, **kwds)
        self.dialect = dialect
        self.line_num = 0

    @property
    def fieldnames(self):
        if self._fieldnames is None:
            try:
                self._fieldnames = next(self.reader)
            except StopIteration:
                pass
        self.line_num = self.reader.line_num
        return self._fieldnames

    def __iter__(self):
        return self

    def __next__(self):
        if self.line_num == 0:
            self.fieldnames
        row = next(self.reader)
        self.line_num = self.reader.line_num
        while row == []:
            row = next(self.reader)
        d = dict(zip(self.fieldnames, row))
        lf, lr = len(self.fieldnames), len(row)
        if lf < lr:
            d[self.restkey] = row[lf:]
        elif lf > lr:
            for key in self.fieldnames[lr:]:
                d[key] = self.restval
        return d


class DictWriter:
    def __init__(self, f, fieldnames, restval="", extrasaction="raise", dialect="excel",
                 *args, **kwds):
        self.fieldnames = list(fieldnames)
        self.restval = restval
        if extrasaction.lower() not in ("raise", "ignore"):
            raise ValueError(f"extrasaction ({extrasaction}) must be 'raise' or 'ignore'")
        self.extrasaction = extrasaction
        self.writer = writer(f, dialect, *args, **kwds)

    def writeheader(self):
        return self.writer.writerow(self.fieldnames)

    def _row(self, rowdict):
        if self.extrasaction == "raise":
            wrong = [k for k in rowdict if k not in self.fieldnames]
            if wrong:
                raise ValueError("dict contains fields not in fieldnames: "
                                 + ", ".join([repr(x) for x in wrong]))
        return [rowdict.get(key, self.restval) for key in self.fieldnames]

    def writerow(self, rowdict):
        return self.writer.writerow(self._row(rowdict))

    def writerows(self, rowdicts):
        for rowdict in rowdicts:
            self.writerow(rowdict)
