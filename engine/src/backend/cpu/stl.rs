//! The C++ standard library's unstable sorting algorithms, step for step as GCC's libstdc++
//! runs them (`bits/stl_algo.h`, `bits/stl_heap.h`), and the Sedgewick quickselect of
//! PyTorch's `Sorting.cpp`. PyTorch's CPU kernels call these (`sort(stable=False)` and `mode`
//! `std::sort`, `topk` `std::partial_sort` or `std::nth_element`, `kthvalue` the quickselect),
//! and the order they leave equal elements in is what the indices PyTorch returns show: the same
//! steps give the same indices.
//!
//! Each takes the slice and `less`, the strict weak order the C++ comparator is.

/// libstdc++'s `_S_threshold`: ranges up to this size are left to insertion sort.
const THRESHOLD: usize = 16;

/// `std::sort`: introsort, then one insertion sort over the whole range.
pub fn sort<T: Copy>(v: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    if v.len() > 1 {
        introsort_loop(v, 0, v.len(), 2 * lg(v.len()), less);
        final_insertion_sort(v, less);
    }
}

/// `std::partial_sort(first, first + k, last)`: the `k` least, in order, by heap selection.
pub fn partial_sort<T: Copy>(v: &mut [T], k: usize, less: &impl Fn(&T, &T) -> bool) {
    let k = k.min(v.len());
    heap_select(v, 0, k, v.len(), less);
    sort_heap(v, 0, k, less);
}

/// `std::nth_element(first, first + nth, last)`: introselect.
pub fn nth_element<T: Copy>(v: &mut [T], nth: usize, less: &impl Fn(&T, &T) -> bool) {
    if nth >= v.len() {
        return;
    }
    let (mut first, mut last) = (0, v.len());
    let mut depth = 2 * lg(v.len());
    while last - first > 3 {
        if depth == 0 {
            heap_select(v, first, nth + 1, last, less);
            v.swap(first, nth);
            return;
        }
        depth -= 1;
        let cut = partition_pivot(v, first, last, less);
        if cut <= nth {
            first = cut;
        } else {
            last = cut;
        }
    }
    insertion_sort(v, first, last, less);
}

/// PyTorch's `quick_select_template` (Sedgewick's partition, median of three): afterwards
/// `v[k]` is the element of rank `k` under `greater` (`gt_or_nan`), the swaps as PyTorch's.
pub fn quick_select<T: Copy>(v: &mut [T], k: usize, greater: &impl Fn(&T, &T) -> bool) {
    if v.is_empty() {
        return;
    }
    let (mut l, mut r) = (0usize, v.len() - 1);
    loop {
        if r <= l {
            return;
        }
        if r == l + 1 {
            if greater(&v[l], &v[r]) {
                v.swap(l, r);
            }
            return;
        }
        let p = (l + r) >> 1;
        v.swap(p, l + 1);
        if greater(&v[l + 1], &v[r]) {
            v.swap(l + 1, r);
        }
        if greater(&v[l], &v[r]) {
            v.swap(l, r);
        }
        if greater(&v[l + 1], &v[l]) {
            v.swap(l + 1, l);
        }
        let (mut i, mut j) = (l + 1, r);
        let pivot = v[l];
        loop {
            i += 1;
            while greater(&pivot, &v[i]) {
                i += 1;
            }
            j -= 1;
            while greater(&v[j], &pivot) {
                j -= 1;
            }
            if j < i {
                break;
            }
            v.swap(i, j);
        }
        v.swap(l, j);
        if j <= k {
            l = i;
        }
        if j >= k {
            // j ≥ k ≥ l > 0 here, so j - 1 does not wrap.
            r = j - 1;
        }
    }
}

/// `std::__lg`: the floor of log2.
fn lg(n: usize) -> usize {
    (usize::BITS - 1 - n.leading_zeros()) as usize
}

fn introsort_loop<T: Copy>(
    v: &mut [T],
    first: usize,
    mut last: usize,
    mut depth: usize,
    less: &impl Fn(&T, &T) -> bool,
) {
    while last - first > THRESHOLD {
        if depth == 0 {
            heap_select(v, first, last, last, less);
            sort_heap(v, first, last, less);
            return;
        }
        depth -= 1;
        let cut = partition_pivot(v, first, last, less);
        introsort_loop(v, cut, last, depth, less);
        last = cut;
    }
}

fn final_insertion_sort<T: Copy>(v: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    if v.len() > THRESHOLD {
        insertion_sort(v, 0, THRESHOLD, less);
        for i in THRESHOLD..v.len() {
            unguarded_linear_insert(v, i, less);
        }
    } else {
        insertion_sort(v, 0, v.len(), less);
    }
}

fn insertion_sort<T: Copy>(v: &mut [T], first: usize, last: usize, less: &impl Fn(&T, &T) -> bool) {
    for i in first + 1..last.max(first + 1) {
        if less(&v[i], &v[first]) {
            let value = v[i];
            v.copy_within(first..i, first + 1);
            v[first] = value;
        } else {
            unguarded_linear_insert(v, i, less);
        }
    }
}

/// Moves `v[last]` down past the elements greater than it; an element not greater stops it
/// (the caller guarantees one below).
fn unguarded_linear_insert<T: Copy>(v: &mut [T], mut last: usize, less: &impl Fn(&T, &T) -> bool) {
    let value = v[last];
    while last > 0 && less(&value, &v[last - 1]) {
        v[last] = v[last - 1];
        last -= 1;
    }
    v[last] = value;
}

/// The median of `v[first + 1]`, the middle and `v[last - 1]` moved to `first`, then
/// libstdc++'s unguarded partition around it; returns the cut.
fn partition_pivot<T: Copy>(
    v: &mut [T],
    first: usize,
    last: usize,
    less: &impl Fn(&T, &T) -> bool,
) -> usize {
    let mid = first + (last - first) / 2;
    let (a, b, c) = (first + 1, mid, last - 1);
    let median = if less(&v[a], &v[b]) {
        if less(&v[b], &v[c]) {
            b
        } else if less(&v[a], &v[c]) {
            c
        } else {
            a
        }
    } else if less(&v[a], &v[c]) {
        a
    } else if less(&v[b], &v[c]) {
        c
    } else {
        b
    };
    v.swap(first, median);
    let (mut lo, mut hi) = (first + 1, last);
    loop {
        while less(&v[lo], &v[first]) {
            lo += 1;
        }
        hi -= 1;
        while less(&v[first], &v[hi]) {
            hi -= 1;
        }
        if lo >= hi {
            return lo;
        }
        v.swap(lo, hi);
        lo += 1;
    }
}

/// `std::__heap_select`: a max-heap of `[first, middle)` that ends holding the least elements
/// of `[first, last)`.
fn heap_select<T: Copy>(
    v: &mut [T],
    first: usize,
    middle: usize,
    last: usize,
    less: &impl Fn(&T, &T) -> bool,
) {
    make_heap(v, first, middle, less);
    for i in middle..last {
        if less(&v[i], &v[first]) {
            pop_heap(v, first, middle, i, less);
        }
    }
}

fn make_heap<T: Copy>(v: &mut [T], first: usize, last: usize, less: &impl Fn(&T, &T) -> bool) {
    let len = last - first;
    if len < 2 {
        return;
    }
    let mut parent = (len - 2) / 2;
    loop {
        let value = v[first + parent];
        adjust_heap(v, first, parent, len, value, less);
        if parent == 0 {
            return;
        }
        parent -= 1;
    }
}

fn sort_heap<T: Copy>(v: &mut [T], first: usize, mut last: usize, less: &impl Fn(&T, &T) -> bool) {
    while last - first > 1 {
        last -= 1;
        pop_heap(v, first, last, last, less);
    }
}

/// `std::__pop_heap`: the top goes to `result`, whose element sinks into the heap.
fn pop_heap<T: Copy>(
    v: &mut [T],
    first: usize,
    last: usize,
    result: usize,
    less: &impl Fn(&T, &T) -> bool,
) {
    let value = v[result];
    v[result] = v[first];
    adjust_heap(v, first, 0, last - first, value, less);
}

fn adjust_heap<T: Copy>(
    v: &mut [T],
    first: usize,
    mut hole: usize,
    len: usize,
    value: T,
    less: &impl Fn(&T, &T) -> bool,
) {
    let top = hole;
    let mut child = hole;
    while child < len.saturating_sub(1) / 2 {
        child = 2 * (child + 1);
        if less(&v[first + child], &v[first + child - 1]) {
            child -= 1;
        }
        v[first + hole] = v[first + child];
        hole = child;
    }
    if len & 1 == 0 && len >= 2 && child == (len - 2) / 2 {
        child = 2 * (child + 1);
        v[first + hole] = v[first + child - 1];
        hole = child - 1;
    }
    // std::__push_heap
    while hole > top {
        let parent = (hole - 1) / 2;
        if !less(&v[first + parent], &value) {
            break;
        }
        v[first + hole] = v[first + parent];
        hole = parent;
    }
    v[first + hole] = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_sorted(v: &[(i32, usize)]) -> bool {
        v.windows(2).all(|w| w[0].0 <= w[1].0)
    }

    #[test]
    fn each_algorithm_orders_values_whatever_the_length() {
        let less = |a: &(i32, usize), b: &(i32, usize)| a.0 < b.0;
        for n in 0..200 {
            let base: Vec<(i32, usize)> = (0..n).map(|i| (((i * 37 + 11) % 7) as i32, i)).collect();
            let mut v = base.clone();
            sort(&mut v, &less);
            assert!(is_sorted(&v), "sort {n}");
            for k in [0, n / 3, n.saturating_sub(1)] {
                let mut p = base.clone();
                partial_sort(&mut p, k, &less);
                assert!(is_sorted(&p[..k]), "partial_sort {n} {k}");
                let mut s = base.clone();
                s.sort_by_key(|e| e.0);
                if k < n {
                    assert_eq!(
                        p[..k].iter().map(|e| e.0).collect::<Vec<_>>(),
                        s[..k].iter().map(|e| e.0).collect::<Vec<_>>()
                    );
                    let mut e = base.clone();
                    nth_element(&mut e, k, &less);
                    assert_eq!(e[k].0, s[k].0, "nth_element {n} {k}");
                    let mut q = base.clone();
                    quick_select(&mut q, k, &|a: &(i32, usize), b: &(i32, usize)| a.0 > b.0);
                    assert_eq!(q[k].0, s[k].0, "quick_select {n} {k}");
                }
            }
        }
    }

    /// Worked by hand through libstdc++'s steps: `nth_element` of 7 with ties leaves the
    /// indices PyTorch's `topk(largest=False)` returns.
    #[test]
    fn nth_element_leaves_ties_where_libstdcxx_leaves_them() {
        let mut v: Vec<(i32, usize)> = [3, 1, 3, 2, 1, 1, 5].iter().copied().zip(0..).collect();
        let less = |a: &(i32, usize), b: &(i32, usize)| a.0 < b.0;
        nth_element(&mut v, 2, &less);
        sort(&mut v[..2], &less);
        assert_eq!(v[..3].iter().map(|e| e.1).collect::<Vec<_>>(), [5, 4, 1]);
    }
}
