#!/usr/bin/env python3
"""Attack probes against the release binary, with its memory: starts the server on a fresh
SQLite file (or the Postgres of DATABASE_URL), signs two players up into a game, then
sends every server function (read from app/src/api) bodies of a megabyte, 66,000-character
strings, NUL characters and 100,000-deep nesting, and at once 50 chat messages, 300 reports and
100 push subscriptions. Prints the server's resident memory before, at its peak and after, every
answer's status class, and how many of the concurrent writes were let through (the caps are 5
messages in 10 s, 20 open reports and 10 devices). Usage: python3 scripts/probebench.py"""
import http.client, http.cookiejar, json, os, re, subprocess, sys, tempfile, threading, time, urllib.error
import urllib.parse, urllib.request
from concurrent.futures import ThreadPoolExecutor

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.path.join(root, "target", "release", "alfakraft")
data = tempfile.mkdtemp(prefix="probebench-")
server = subprocess.Popen(
    [binary, "--addr", "127.0.0.1:0", "--data-dir", data, "--log", "error",
     "--dictionaries-dir", os.path.join(root, "dictionaries"), "--site-root", data],
    stdout=subprocess.PIPE, text=True, cwd=root)
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


class Player:
    """A browser: its own cookies, posting as a same-origin page."""

    def __init__(self):
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def post(self, path, body, content_type="application/json"):
        request = urllib.request.Request(url + path, data=body, headers={
            "content-type": content_type, "accept": "application/json",
            "sec-fetch-site": "same-origin"})
        try:
            with self.opener.open(request, timeout=120) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()
        except urllib.error.URLError:
            # The server answered from the headers alone (a body over its limit) and closed
            # the connection while the body was still going out: ask again, headers only.
            return self.declared(path, len(body), content_type)
        except ConnectionError:
            # Closed by the server's cap on connections from one address.
            return 0, b"closed"

    def declared(self, path, length, content_type):
        host = urllib.parse.urlparse(url)
        connection = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
        connection.putrequest("POST", path)
        for name, value in [("content-type", content_type), ("content-length", str(length)),
                            ("sec-fetch-site", "same-origin")]:
            connection.putheader(name, value)
        connection.endheaders()
        answer = connection.getresponse()
        status, body = answer.status, answer.read()
        connection.close()
        return status, body

    def form(self, path, fields):
        return self.post(path, urllib.parse.urlencode(fields).encode(),
                         "application/x-www-form-urlencoded")

    def call(self, path, args):
        return self.post(path, json.dumps(args).encode())


def signed_up(name):
    player = Player()
    status, body = player.form("/api/account/sign-up", {"name": name, "password": "a good password"})
    assert status == 200 and body.startswith(b'{"Ok"'), body
    return player


stamp = str(int(time.time()))[-6:]
ann_name, bob_name = f"probe_ann{stamp}", f"probe_bob{stamp}"
ann, bob = signed_up(ann_name), signed_up(bob_name)
new = {"new": {"variant": "Classic", "dictionary": "en", "format": "Casual",
               "opponent": {"Friend": {"name": ann_name}}, "rated": False}}
_, created = bob.call("/api/games/create", new)
game = json.loads(created)["Ok"]["id"]
status, answered = ann.form("/api/friends/answer", {"game": game, "accept": "true"})
assert status == 200, answered

endpoints = sorted(set(re.findall(
    r'endpoint = "([^"]+)"',
    "".join(open(os.path.join(root, "app/src/api", f)).read()
            for f in os.listdir(os.path.join(root, "app/src/api")) if f.endswith(".rs")))))
fields = ["id", "game", "name", "password", "current", "new", "code", "text", "reason",
          "address", "who", "token", "endpoint", "p256dh", "auth", "word", "dictionary"]
every = lambda value: json.dumps({f: value for f in fields}).encode()
deep = "[" * 100_000 + "]" * 100_000
shapes = {
    "a megabyte": every("y" * (1 << 20)),
    "66,000 characters": json.dumps({f: "x" * 66_000 for f in ["name", "text", "reason"]}).encode(),
    "NUL": every("a\u0000b"),
    "nested 100,000 deep": ('{"id":' + deep + "}").encode(),
}
before, peak = rss_mb(), 0.0
statuses = {}
# A player of their own: among the functions are signing out and closing the account.
mallory = signed_up(f"probe_mal{stamp}")
for endpoint in endpoints:
    for shape, body in shapes.items():
        status, _ = mallory.post("/api/" + endpoint, body)
        statuses.setdefault(f"{status // 100}xx", 0)
        statuses[f"{status // 100}xx"] += 1
        peak = max(peak, rss_mb())
after_oversize = rss_mb()


def at_once(count, job):
    global peak
    with ThreadPoolExecutor(max_workers=count) as pool:
        answers = list(pool.map(job, range(count)))
    peak = max(peak, rss_mb())
    closed[0] += sum(1 for status, _ in answers if status == 0)
    return sum(1 for status, body in answers if status == 200 and body.startswith(b'{"Ok"'))


closed = [0]


sent = at_once(50, lambda i: ann.form("/api/chat/send", {"game": game, "text": f"hello {i}"}))
reported = at_once(300, lambda i: ann.form(
    "/api/moderation/report", {"name": bob_name, "reason": f"probe {i}"}))
devices = at_once(100, lambda i: ann.call("/api/push/subscribe", {
    "endpoint": f"https://fcm.googleapis.com/fcm/send/probe{i}",
    "p256dh": "B" + "A" * 86, "auth": "A" * 22}))
time.sleep(1)
after = rss_mb()
server.terminate()
server.wait()
subprocess.run(["rm", "-rf", data])
print(f"{len(endpoints)} server functions x {len(shapes)} shapes: {statuses}")
print(f"at once: {sent} of 50 messages, {reported} of 300 reports, {devices} of 100 devices "
      f"let through ({closed[0]} requests closed by the cap on connections from one address)")
print(f"RSS: {before:.0f} MB before, {after_oversize:.0f} MB after the oversize probes, "
      f"{after:.0f} MB after the concurrent ones, {peak:.0f} MB at the peak")
sys.exit(1 if "5xx" in statuses else 0)
