# complex: literals, arithmetic with ints and floats, reprs, parts, and what it refuses.
z = 5 + 2j
w = complex(1, -1)
print(z, w, 2j, -2j, 1j * 1j, type(z).__name__, isinstance(z, complex))
print(z + w, z - w, z * w, z / w, z ** 2, w ** -1, (1 + 1j) ** 0.5)
print(z + 1, 2 * z, z / 2, 1 / w, 3 - z, -z, +z)
print(z.real, z.imag, z.conjugate(), abs(3 + 4j), abs(-2j))
print(complex(), complex(2), complex(2.5), complex("1+2j"), complex(" (3-4j) "), complex("-1.5j"),
      complex("1e-3+1e2j"), complex(real=1, imag=2), complex(imag=3), complex(1j, 1j))
print(z == 5 + 2j, (2 + 0j) == 2, (2 + 0j) == 2.0, z != w, bool(0j), bool(1j))
print(repr(complex(-0.0, -1.0)), repr(complex(0.0, -0.0)), 1e20j, complex(1.5, float("inf")),
      complex(float("nan"), 1))
print([x * 1j for x in range(3)], sum([1j, 2, 3.5]), f"{z}", str(w), "{0.real} {0.imag}".format(z))
print((5).real, (5).imag, (2.5).imag, (7).conjugate(), 1 + 2j - 2j)
for bad in ["z // 2", "z % 2", "z < w", "complex('x')", "complex('1', 2)", "1j / 0", "0j ** -1",
            "int(z)", "float(z)", "complex([])", "round(z)"]:
    try:
        print(eval(bad))
    except Exception as e:
        print(f"{bad}: {type(e).__name__}: {e}")
print(hash(1+2j), hash(2j), hash(complex(1.5, -1)), {1j: "a", 2: "b"}[1j], {3+0j, 3})
