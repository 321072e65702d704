# conformance: stderr
import logging
import sys
import io

logging.warning("before config goes to stderr")
logging.info("dropped")
root = logging.getLogger()
print(root, root.handlers)
for h in root.handlers[:]:
    root.removeHandler(h)
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stdout)
log = logging.getLogger(__name__)
log.info("epoch %d loss %.4f", 1, 0.12345)
log.debug("hidden")
train = logging.getLogger(__name__ + ".train")
train.setLevel(logging.WARNING)
train.info("suppressed")
train.warning("kept %s", "yes")
print(train.getEffectiveLevel(), logging.getLevelName(train.getEffectiveLevel()), log.getEffectiveLevel())
print(logging.getLevelName(10), logging.getLevelName("INFO"), logging.getLevelName(15))
print(log.isEnabledFor(logging.DEBUG), train.parent is log, log.parent is root)
print(repr(log), repr(train))
buf = io.StringIO()
h = logging.StreamHandler(buf)
h.setFormatter(logging.Formatter("[{levelname}] {message}", style="{"))
h.setLevel(logging.ERROR)
log.addHandler(h)
log.warning("warn %s", "w")
log.error("err")
print(repr(buf.getvalue()))
log.propagate = False  # the traceback goes to the buffer only
def load(batch):
    raise ValueError(f"bad batch {batch}")
try:
    load(3)
except ValueError:
    log.exception("failed")
lines = buf.getvalue().splitlines()
print(lines[1:3], lines[-1])
log.propagate = True
quiet = logging.getLogger("quiet")
quiet.propagate = False
quiet.addHandler(logging.NullHandler())
quiet.error("nothing")
class OnlyOdd(logging.Filter):
    def filter(self, record):
        return record.args[0] % 2 == 1
f = logging.getLogger("filtered")
f.addFilter(OnlyOdd())
for i in range(4):
    f.info("step %d", i)
logging.log(logging.WARNING, "via log %s", {"a": 1})
logging.info("%(x)s and %(y)s", {"x": 1, "y": 2})
try:
    logging.basicConfig(bogus=1, force=True)
except ValueError as e:
    print("ValueError:", e)
adapter = logging.LoggerAdapter(log, {"run": 7})
adapter.info("adapted")
logging.disable(logging.INFO)
log.info("disabled")
log.warning("still on")
logging.disable(logging.NOTSET)
fmt = logging.Formatter("%(name)s|%(funcName)s|%(lineno)d|%(filename)s|%(module)s|%(message)s")
h2 = logging.StreamHandler(sys.stdout)
h2.setFormatter(fmt)
g = logging.getLogger("where")
g.propagate = False
g.addHandler(h2)
def inner():
    g.warning("here")
inner()
g.warning("top")
