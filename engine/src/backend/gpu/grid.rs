//! Dispatch grids: how many workgroups to launch, in two dimensions.
//!
//! WebGPU caps each dimension of a dispatch at 65,535 workgroups, so a flat array larger than
//! `65,535 × workgroup_size` elements is laid out as rows of workgroups; a kernel recovers its flat
//! index as `gid.y * row_stride + gid.x`.

use super::GpuError;

/// A 2-D dispatch covering at least `invocations` threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Grid {
    pub workgroups_x: u32,
    pub workgroups_y: u32,
    /// Threads per row of the grid: what a kernel multiplies `gid.y` by.
    pub row_stride: u32,
}

impl Grid {
    pub fn cover(
        invocations: u64,
        workgroup_size: u32,
        max_per_dimension: u32,
    ) -> Result<Self, GpuError> {
        let too_large = || GpuError::GridTooLarge { invocations };
        let groups = invocations.div_ceil(u64::from(workgroup_size)).max(1);
        let max = u64::from(max_per_dimension);
        let (x, y) = if groups <= max {
            (groups, 1)
        } else {
            (max, groups.div_ceil(max))
        };
        if y > max {
            return Err(too_large());
        }
        let row_stride = x
            .checked_mul(u64::from(workgroup_size))
            .and_then(|s| u32::try_from(s).ok())
            .ok_or_else(too_large)?;
        Ok(Self {
            workgroups_x: u32::try_from(x).map_err(|_| too_large())?,
            workgroups_y: u32::try_from(y).map_err(|_| too_large())?,
            row_stride,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_arrays_dispatch_in_one_row() {
        let grid = Grid::cover(1000, 64, 65_535).unwrap();
        assert_eq!((grid.workgroups_x, grid.workgroups_y), (16, 1));
        assert_eq!(grid.row_stride, 16 * 64);
    }

    #[test]
    fn arrays_past_the_per_dimension_cap_wrap_into_rows() {
        let invocations = 65_535 * 64 + 1;
        let grid = Grid::cover(invocations, 64, 65_535).unwrap();
        assert_eq!((grid.workgroups_x, grid.workgroups_y), (65_535, 2));
        assert!(u64::from(grid.row_stride) * u64::from(grid.workgroups_y) >= invocations);
    }

    #[test]
    fn every_grid_covers_its_invocations_exactly_once_per_index() {
        for n in [1u64, 63, 64, 65, 4_194_240, 4_194_241, 10_000_000] {
            let g = Grid::cover(n, 64, 65_535).unwrap();
            let threads = u64::from(g.row_stride) * u64::from(g.workgroups_y);
            assert!(threads >= n, "{n}: {g:?}");
            // One row fewer would not be enough: no grid launches a whole idle row.
            assert!(threads - u64::from(g.row_stride) < n, "{n}: {g:?}");
        }
    }

    #[test]
    fn grids_beyond_two_dimensions_are_refused() {
        let n = 65_535u64 * 65_535 * 64 + 1;
        assert_eq!(
            Grid::cover(n, 64, 65_535),
            Err(GpuError::GridTooLarge { invocations: n })
        );
    }
}
