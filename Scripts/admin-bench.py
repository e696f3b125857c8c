#!/usr/bin/env python3
"""The Admin API's throughput through the real firebase-admin (PyPI) against an emulator, for
Scripts/bench.sh to print beside FirebaseAdminAuth's (Scripts/bench/admin-throughput):

  admin-bench.py HOST:PORT PROJECT SECONDS

The same work: 10,000 users imported in batches of 1,000, all listed (pages of 1,000, resident
memory sampled after each page), then get_user from 16 concurrent threads for SECONDS. Prints
one JSON object with the same keys.
"""
import json
import os
import resource
import sys
import threading
import time
import uuid

host, project, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = host
os.environ.pop("GOOGLE_APPLICATION_CREDENTIALS", None)

import firebase_admin  # noqa: E402
from firebase_admin import _utils, auth, credentials  # noqa: E402


class EmulatorCredential(credentials.Base):
    def get_credential(self):
        return _utils.EmulatorAdminCredentials()


app = firebase_admin.initialize_app(EmulatorCredential(), options={"projectId": project}, name=f"bench-{uuid.uuid4().hex[:8]}")


def resident_bytes():
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


start = time.monotonic()
for batch in range(10):
    users = [auth.ImportUserRecord(uid=f"python-{batch * 1000 + i}", email=f"python-{batch * 1000 + i}@example.com", email_verified=True,
                                   display_name=f"User {i}") for i in range(1000)]
    result = auth.import_users(users, app=app)
    assert result.success_count == 1000, result.errors[:3]
import_seconds = time.monotonic() - start

start = time.monotonic()
before = resident_bytes()
most = before
listed = 0
page = auth.list_users(max_results=1000, app=app)
while page:
    listed += len(page.users)
    most = max(most, resident_bytes())
    page = page.get_next_page()
list_seconds = time.monotonic() - start

deadline = time.monotonic() + seconds
counts = [0] * 16


def worker(index):
    while time.monotonic() < deadline:
        auth.get_user(f"python-{(index * 613 + counts[index]) % 10000}", app=app)
        counts[index] += 1


threads = [threading.Thread(target=worker, args=(i,)) for i in range(16)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()

print(json.dumps({"import_10000_seconds": round(import_seconds, 2), "list_10000_seconds": round(list_seconds, 2), "listed": listed,
                  "list_memory_growth_mib": round((most - before) / 1048576, 2), "getUser_per_second": int(sum(counts) / seconds)}, sort_keys=True))
