#!/usr/bin/env python3
"""One client in a loop against an Auth emulator, as a test suite's client is (issue 49, item 4).

  emulator-bench.py HOST:PORT PROJECT [SECONDS] [LARGE]

Prints JSON: anonymous `accounts:signUp` per second, `accounts:lookup` per second (of one
user's ID token), and the seconds a 1,000-user `accounts:batchCreate` and the `batchGet` pages
that list them take; an Admin lookup by email per second among 10 users and among LARGE
(default 100,000), and the seconds the large import takes. A new connection each request, as
most test clients make them.
"""
import http.client
import json
import sys
import time

host, project = sys.argv[1], sys.argv[2]
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 3.0
large = int(sys.argv[4]) if len(sys.argv) > 4 else 100_000
name, port = host.rsplit(":", 1)


def call(method, path, body=None, owner=False):
    connection = http.client.HTTPConnection(name, int(port), timeout=30)
    headers = {"Content-Type": "application/json"}
    if owner:
        headers["Authorization"] = "Bearer owner"
    connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    answer = connection.getresponse()
    data = answer.read()
    connection.close()
    if answer.status != 200:
        raise SystemExit(f"{method} {path}: {answer.status} {data[:200]!r}")
    return json.loads(data)


def rate(work):
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        work()
        count += 1
    return round(count / (time.perf_counter() - start))


signup = "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=bench"
results = {"signUp_per_second": rate(lambda: call("POST", signup, {"returnSecureToken": True}))}
token = call("POST", signup, {"returnSecureToken": True})["idToken"]
results["lookup_per_second"] = rate(lambda: call("POST", "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=bench", {"idToken": token}))

# The import and the listing in a project of their own: the sign-ups above leave each emulator
# as many accounts as it answered, and the listing would be of different sizes.
project = f"{project}-listing"
stamp = int(time.time() * 1000)
users = [{"localId": f"bench-{stamp}-{index:04d}", "email": f"bench-{stamp}-{index}@example.com", "displayName": f"User {index}"} for index in range(1000)]
start = time.perf_counter()
call("POST", f"/identitytoolkit.googleapis.com/v1/projects/{project}/accounts:batchCreate", {"users": users}, owner=True)
results["import_1000_seconds"] = round(time.perf_counter() - start, 3)
start, listed, page = time.perf_counter(), 0, ""
while True:
    answer = call("GET", f"/identitytoolkit.googleapis.com/v1/projects/{project}/accounts:batchGet?maxResults=1000" + (f"&nextPageToken={page}" if page else ""), owner=True)
    listed += len(answer.get("users", []))
    page = answer.get("nextPageToken", "")
    if not page:
        break
results["list_all_seconds"] = round(time.perf_counter() - start, 3)
results["listed"] = listed

# A lookup by email among 10 users, then among LARGE (issue 59, item 6: an index makes them
# cost the same), each in a project of its own, imported in batches of 1,000.
def populate(target, count):
    for first in range(0, count, 1000):
        batch = [{"localId": f"u-{index:06d}", "email": f"user-{index}@example.com"} for index in range(first, min(count, first + 1000))]
        call("POST", f"/identitytoolkit.googleapis.com/v1/projects/{target}/accounts:batchCreate", {"users": batch}, owner=True)

for label, count in (("lookup_email_among_10_per_second", 10), ("lookup_email_among_large_per_second", large)):
    target = f"{project}-{count}-{stamp}"
    start = time.perf_counter()
    populate(target, count)
    if count == large:
        results["import_large_seconds"] = round(time.perf_counter() - start, 3)
    emails = [f"user-{index}@example.com" for index in range(0, count, max(1, count // 97))]
    turn = [0]

    def lookup():
        turn[0] += 1
        found = call("POST", f"/identitytoolkit.googleapis.com/v1/projects/{target}/accounts:lookup", {"email": [emails[turn[0] % len(emails)]]}, owner=True)
        if len(found.get("users", [])) != 1:
            raise SystemExit(f"lookup in {target}: {found}")
    results[label] = rate(lookup)
results["large"] = large
print(json.dumps(results))
