#!/usr/bin/env python3
"""Sign-up burst bench (issue 17, point 1): starts the release server on a fresh SQLite file,
fires N sign-ups at once (distinct names, one thread each) while probing /healthz every 10 ms,
and prints the server's resident memory before, at its peak and after, and /healthz latency
during the burst. Usage: python3 scripts/signupbench.py [N]  (default 200)."""
import os, re, subprocess, sys, tempfile, threading, time, urllib.parse, urllib.request

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.path.join(root, "target", "release", "alfakraft")
data = tempfile.mkdtemp(prefix="signupbench-")
server = subprocess.Popen(
    [binary, "--addr", "127.0.0.1:0", "--data-dir", data, "--log", "warn",
     "--dictionaries-dir", os.path.join(root, "dictionaries"), "--site-root", data],
    stdout=subprocess.PIPE, text=True, cwd=root,
    # The per-address account limit would refuse most of the burst: this measures the hashing.
    env={**os.environ, "ALFAKRAFT_ACCOUNTS_PER_HOUR": str(N * 2)})
url = None
for line in server.stdout:
    m = re.match(r"Alfa Kraft is running at (\S+)", line)
    if m:
        url = m.group(1).rstrip("/")
        break
threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()

def rss_mb():
    with open(f"/proc/{server.pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) / 1024

def sign_up(i, results):
    body = urllib.parse.urlencode({"name": f"bench_{i}", "password": "a good password"}).encode()
    req = urllib.request.Request(url + "/api/account/sign-up", data=body, headers={
        "content-type": "application/x-www-form-urlencoded", "accept": "application/json",
        "sec-fetch-site": "same-origin"})
    start = time.perf_counter()
    with urllib.request.urlopen(req, timeout=120) as r:
        results[i] = (r.status, time.perf_counter() - start, r.read())

before = rss_mb()
results, peak, health = {}, before, []
done = threading.Event()

def probe():
    global peak
    while not done.is_set():
        start = time.perf_counter()
        urllib.request.urlopen(url + "/healthz", timeout=30).read()
        health.append((time.perf_counter() - start) * 1000)
        peak = max(peak, rss_mb())
        time.sleep(0.01)

prober = threading.Thread(target=probe)
prober.start()
burst_start = time.perf_counter()
threads = [threading.Thread(target=sign_up, args=(i, results)) for i in range(N)]
for t in threads: t.start()
for t in threads: t.join()
burst = time.perf_counter() - burst_start
done.set(); prober.join()
time.sleep(1)
after = rss_mb()
server.terminate(); server.wait()
subprocess.run(["rm", "-rf", data])
ok = sum(1 for s, _, b in results.values() if s == 200 and b.startswith(b'{"Ok"'))
health.sort()
pct = lambda p: health[min(len(health) - 1, int(len(health) * p))]
print(f"sign-ups: {ok} of {N} made in {burst:.1f} s")
print(f"RSS: {before:.0f} MB before, {peak:.0f} MB at the peak, {after:.0f} MB after")
print(f"/healthz during the burst: {len(health)} probes, p50 {pct(0.5):.1f} ms, p99 {pct(0.99):.1f} ms, max {health[-1]:.1f} ms")
