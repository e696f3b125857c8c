#!/usr/bin/env python3
"""One client in a loop against an Auth emulator, as a test suite's client is (issue 49, item 4).

  emulator-bench.py HOST:PORT PROJECT [SECONDS]

Prints JSON: anonymous `accounts:signUp` per second, `accounts:lookup` per second (of one
user's ID token), and the seconds a 1,000-user `accounts:batchCreate` and the `batchGet` pages
that list them take. A new connection each request, as most test clients make them.
"""
import http.client
import json
import sys
import time

host, project = sys.argv[1], sys.argv[2]
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 3.0
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
print(json.dumps(results))
