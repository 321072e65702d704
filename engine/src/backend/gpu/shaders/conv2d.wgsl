// Direct 2-D convolution: one thread per output element, for the forward pass and for each of
// the two gradients (no im2col buffer, no atomics: every thread sums its own terms). The generated
// part declares `dims`, `out`, the two operands `a` and `b` with their loads `load_a`/`load_b`
// returning `acc` lanes, `bias_of` (the forward pass's bias, or 0), and the entry point that
// calls one of these.
//
// dims: [total, row_stride, N, C, H, W, O, KH, KW, OH, OW, groups, stride y, stride x,
//        padding y, padding x, dilation y, dilation x, a offset, b offset, bias offset]

fn d(i: u32) -> u32 {
    return dims[i];
}

// The input row (or column) that kernel tap `tap` reads for output position `o` along `axis`
// (0: y, 1: x); negative or past the end lies in the zero padding.
fn source_of(o: u32, tap: u32, axis: u32) -> i32 {
    return i32(o * d(12u + axis) + tap * d(16u + axis)) - i32(d(14u + axis));
}

// out[n, o, oy, ox] = bias[o] + Σ input[n, g·cg + c, y, x] · weight[o, c, i, j]
// (a = input, b = weight; the bias is added before the one rounding to the output's dtype)
fn forward(t: u32) -> acc {
    let C = d(3u); let H = d(4u); let W = d(5u); let O = d(6u);
    let KH = d(7u); let KW = d(8u); let OH = d(9u); let OW = d(10u);
    let cg = C / d(11u);
    let ox = t % OW; let oy = (t / OW) % OH; let o = (t / (OW * OH)) % O; let n = t / (OW * OH * O);
    let g = o / (O / d(11u));
    var sum = bias_of(o);
    for (var c = 0u; c < cg; c++) {
        for (var i = 0u; i < KH; i++) {
            let y = source_of(oy, i, 0u);
            if y < 0 || y >= i32(H) { continue; }
            for (var j = 0u; j < KW; j++) {
                let x = source_of(ox, j, 1u);
                if x < 0 || x >= i32(W) { continue; }
                let at = ((n * C + g * cg + c) * H + u32(y)) * W + u32(x);
                sum += load_a(d(18u) + at) * load_b(d(19u) + ((o * cg + c) * KH + i) * KW + j);
            }
        }
    }
    return sum;
}

// grad_input[n, ch, y, x] = Σ grad[n, o, oy, ox] · weight[o, c, i, j] over the output positions
// whose taps read (y, x)   (a = grad, b = weight)
fn grad_input(t: u32) -> acc {
    let C = d(3u); let H = d(4u); let W = d(5u); let O = d(6u);
    let KH = d(7u); let KW = d(8u); let OH = d(9u); let OW = d(10u);
    let cg = C / d(11u); let og = O / d(11u);
    let x = t % W; let y = (t / W) % H; let ch = (t / (W * H)) % C; let n = t / (W * H * C);
    let g = ch / cg; let c = ch % cg;
    var sum = acc(0);
    for (var o = g * og; o < (g + 1u) * og; o++) {
        for (var i = 0u; i < KH; i++) {
            let reach_y = i32(y + d(14u)) - i32(i * d(16u));
            if reach_y < 0 || u32(reach_y) % d(12u) != 0u { continue; }
            let oy = u32(reach_y) / d(12u);
            if oy >= OH { continue; }
            for (var j = 0u; j < KW; j++) {
                let reach_x = i32(x + d(15u)) - i32(j * d(17u));
                if reach_x < 0 || u32(reach_x) % d(13u) != 0u { continue; }
                let ox = u32(reach_x) / d(13u);
                if ox >= OW { continue; }
                let at = ((n * O + o) * OH + oy) * OW + ox;
                sum += load_a(d(18u) + at) * load_b(d(19u) + ((o * cg + c) * KH + i) * KW + j);
            }
        }
    }
    return sum;
}

// grad_weight[o, c, i, j] = Σ grad[n, o, oy, ox] · input[n, g·cg + c, y, x]   (a = grad, b = input)
fn grad_weight(t: u32) -> acc {
    let N = d(2u); let C = d(3u); let H = d(4u); let W = d(5u); let O = d(6u);
    let KH = d(7u); let KW = d(8u); let OH = d(9u); let OW = d(10u);
    let cg = C / d(11u);
    let j = t % KW; let i = (t / KW) % KH; let c = (t / (KW * KH)) % cg; let o = t / (KW * KH * cg);
    let g = o / (O / d(11u));
    var sum = acc(0);
    for (var n = 0u; n < N; n++) {
        for (var oy = 0u; oy < OH; oy++) {
            let y = source_of(oy, i, 0u);
            if y < 0 || y >= i32(H) { continue; }
            for (var ox = 0u; ox < OW; ox++) {
                let x = source_of(ox, j, 1u);
                if x < 0 || x >= i32(W) { continue; }
                let at = ((n * C + g * cg + c) * H + u32(y)) * W + u32(x);
                sum += load_a(d(18u) + ((n * O + o) * OH + oy) * OW + ox) * load_b(d(19u) + at);
            }
        }
    }
    return sum;
}
