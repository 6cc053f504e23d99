# Per-call cost against the number of module pidfds open, module and
# native, from bench/run's .dat file (lines: call open module_ns native_ns).
# gnuplot -e "data='X.dat'; title='6.1'; output='X.svg'" per-call.gp
set terminal svg size 900,560 dynamic noenhanced font "sans,12"
set output output
set title sprintf("per-call cost by open pidfds (%s, median of interleaved rounds)", title)
set xlabel "module pidfds open on distinct threads"
set ylabel "ns per call"
set logscale x
set xrange [0.5:200000]
set xtics ("0" 1, "1 000" 1000, "10 000" 10000, "100 000" 100000)
set yrange [0:*]
set key outside right
set grid ytics
# 0 open is plotted at x = 1 on the log axis; native 0 means "no such call".
x(n) = n < 1 ? 1 : n
nat(v) = v > 0 ? v : NaN
calls = "open_close_first open_close signal0 get_info poll unknown_ioctl"
plot for [c in calls] data using (strcol(1) eq c ? x($2) : NaN):3 \
	with linespoints lw 2 title c." (module)", \
     for [c in calls] data using (strcol(1) eq c ? x($2) : NaN):(nat($4)) \
	with linespoints dt 2 title c." (native)"
