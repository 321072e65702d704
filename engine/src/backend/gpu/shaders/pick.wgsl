// Picking along one dimension through an int64 index (gather, index_select, `t[idx]`, embedding,
// and the scatter-adds of their gradients). The generated kernel defines `OPERANDS` (the operand
// blocks of `dims`) and the `failed` flag binding; `dims` ends with the pick's tail:
// [dimension stride, dimension size, wrap negative, has ignore, ignore (2 words), assert code].

// The position of an index that picks nothing: an ignored one, or one out of range.
const SKIP: u32 = 0xffffffffu;

fn pick_tail() -> u32 {
    return 4u + dims[3] + OPERANDS * (dims[3] + 1u);
}

fn pick_stride() -> u32 {
    return dims[pick_tail()];
}

// The position along the dimension that index `i` picks. An index out of range is CUDA's
// device-side assert: the kernel flags its launch's code (the first launch has the largest, so
// `atomicMax` keeps the earliest failure) and picks nothing.
fn pick(i: vec2<u32>) -> u32 {
    let t = pick_tail();
    if dims[t + 3u] != 0u && i64_eq(i, vec2<u32>(dims[t + 4u], dims[t + 5u])) {
        return SKIP;
    }
    let size = dims[t + 1u];
    var v = i;
    if dims[t + 2u] != 0u && i64_is_negative(v) {
        v = i64_add(v, vec2<u32>(size, 0u));
    }
    if i64_is_negative(v) || v.y != 0u || v.x >= size {
        atomicMax(&failed[0], dims[t + 6u]);
        return SKIP;
    }
    return v.x;
}
