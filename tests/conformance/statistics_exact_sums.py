# statistics sums exactly, as CPython's: means, variances and deviations round once.
import statistics as st
data = [2.5, 3.25, 5.5, 11.25, 0.1, 0.2, 0.7]
ints = [1, 2, 3, 4, 5, 6, 8, 9]
print(st.mean(data), st.mean(ints), st.mean([1, 2, 3]), st.mean([0.1] * 10), st.mean([1, 2]))
print(st.harmonic_mean([40, 60]), st.harmonic_mean([2.5, 3, 10]), st.harmonic_mean([5]), st.harmonic_mean([1, 0, 2]))
print(st.variance(data), st.variance(ints), st.variance([1, 3, 5]), st.pvariance(data), st.pvariance(ints))
print(st.stdev(data), st.stdev(ints), st.pstdev(data), st.pstdev([1.5, 2.5, 2.5, 2.75, 3.25, 4.75]))
print(st.variance(data, xbar=st.mean(data)), st.pvariance([0.1, 0.2, 0.3], mu=0.2), st.stdev([2, 4, 4, 4, 5, 5, 7, 9]))
print(st.mean([1e308, 1e308]), st.variance([1, 2, float("inf")]) if False else 0, st.fmean([0.1, 0.2, 0.3]))
print(st.mean([True, 2, 3]), st.variance([0.1 * i for i in range(100)]), st.stdev([1e-9 * i for i in range(7)]))
