#!/usr/bin/env python3
"""A minimal language-server client for the lit tests: starts SERVER, sends
initialize, initialized and didOpen for FILE, waits for the diagnostics the
server publishes for it, prints them ("diagnostics: N", then one line each),
and shuts the server down. Exits non-zero when the server does not answer.

Usage: lsp-client.py SERVER FILE
"""
import json
import os
import subprocess
import sys
import threading


def send(proc, message):
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def receive(proc):
    length = None
    while True:
        line = proc.stdout.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    return json.loads(proc.stdout.read(length))


def main():
    server, path = sys.argv[1], os.path.abspath(sys.argv[2])
    uri = "file://" + path
    with open(path) as f:
        text = f.read()
    proc = subprocess.Popen([server], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    timer = threading.Timer(120, proc.kill)
    timer.start()
    try:
        send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                    "params": {"processId": None, "rootUri": None,
                               "capabilities": {}}})
        send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                    "params": {"textDocument": {
                        "uri": uri, "languageId": "mlir", "version": 1,
                        "text": text}}})
        initialized = False
        while True:
            message = receive(proc)
            if message is None:
                print("error: the server closed its output")
                return 1
            if message.get("id") == 1:
                initialized = "capabilities" in message.get("result", {})
                print("initialized: %s" % ("yes" if initialized else "no"))
            elif (message.get("method") == "textDocument/publishDiagnostics"
                  and message["params"]["uri"] == uri):
                diagnostics = message["params"]["diagnostics"]
                print("diagnostics: %d" % len(diagnostics))
                for d in diagnostics:
                    start = d["range"]["start"]
                    print("%d:%d: %s" % (start["line"] + 1,
                                         start["character"] + 1,
                                         d["message"].splitlines()[0]))
                break
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        send(proc, {"jsonrpc": "2.0", "method": "exit"})
        proc.stdin.close()
        proc.wait()
        return 0 if initialized else 1
    finally:
        timer.cancel()
        if proc.poll() is None:
            proc.kill()


if __name__ == "__main__":
    sys.exit(main())
