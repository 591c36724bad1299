#!/usr/bin/env python3
"""A small demo catalog API in the shape of DummyJSON, for `swift run Example --live <url>`.

Standard library only. Endpoints:
  GET    /products?limit=&skip=      a page: {"products": [...], "total", "skip", "limit"}
  GET    /products/search?q=&limit=&skip=
  GET    /products/<id>              404 {"message"} when there is no such product
  POST   /products/add               echoes the new product with the next id (nothing is stored)
  PUT    /products/<id>              echoes the product with the changes (nothing is stored)
  DELETE /products/<id>              echoes the product with "isDeleted": true (nothing is stored)
  POST   /auth/login                 {"username", "password", "expiresInMins"?} -> user and tokens
  POST   /auth/refresh               {"refreshToken", "expiresInMins"?} -> new tokens
  GET    /auth/me                    the signed-in user, with "Authorization: Bearer <access token>"

Mutations are echoed and not stored, as DummyJSON does, so every run sees the same catalog.
Access tokens live 60 seconds unless the client asks otherwise; refresh tokens 30 minutes.

Usage: catalog_server.py [--port N]   (0, the default, picks a free port)
Prints "URL http://127.0.0.1:<port>" on its first line once it listens.
"""

import argparse
import json
import secrets
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

CATEGORIES = {
    "smartphones": [
        ("iPhone 9", "Apple", 549, 4.69, 94, "An apple mobile which is nothing like apple"),
        ("iPhone X", "Apple", 899, 4.44, 34, "SIM-Free, Model A19211 6.5-inch Super Retina HD display"),
        ("Samsung Universe 9", "Samsung", 1249, 4.09, 36, "Samsung's new variant which goes beyond Galaxy"),
        ("OPPOF19", "OPPO", 280, 4.3, 123, "OPPO F19 is officially announced on April 2021"),
        ("Huawei P30", "Huawei", 499, 4.09, 32, "Huawei's re-badged P30 Pro New Edition phone"),
    ],
    "laptops": [
        ("MacBook Pro", "Apple", 1749, 4.57, 83, "MacBook Pro 2021 with mini-LED display"),
        ("Samsung Galaxy Book", "Samsung", 1499, 4.25, 50, "Samsung Galaxy Book S (2020) laptop"),
        ("Microsoft Surface Laptop 4", "Microsoft", 1499, 4.43, 68, "Style and speed, with a touchscreen"),
        ("Infinix INBOOK", "Infinix", 1099, 4.54, 96, "Infinix Inbook X1 Ci3 10th 8GB 256GB 14"),
        ("HP Pavilion 15-DK1056WM", "HP", 1099, 4.43, 89, "HP Pavilion 15-DK1056WM Gaming Laptop"),
    ],
    "fragrances": [
        ("perfume Oil", "Impression of Acqua Di Gio", 13, 4.26, 65, "Mega Discount, Impression of Acqua Di Gio"),
        ("Brown Perfume", "Royal_Mirage", 40, 4.0, 52, "Royal_Mirage Sport Brown Perfume for Men"),
        ("Fog Scent Xpressio Perfume", "Fog Scent Xpressio", 13, 4.59, 61, "Product details of Best Fog Scent"),
        ("Non-Alcoholic Concentrated Perfume Oil", "Al Munakh", 120, 4.21, 114, "Original Al Munakh"),
        ("Eau De Perfume Spray", "Lord - Al-Rehab", 30, 4.7, 105, "Genuine Al-Rehab spray perfume"),
    ],
    "home-decoration": [
        ("Plant Hanger For Home", "Boho Decor", 41, 4.08, 131, "Boho Decor Plant Hanger For Home"),
        ("Flying Wooden Bird", "Flying Wooden", 51, 4.41, 17, "Package Include 6 Birds with Adhesive Tape"),
        ("3D Embellishment Art Lamp", "LED Lights", 20, 4.82, 54, "3D led lamp sticker Wall sticker"),
        ("Handcraft Chinese style", "luxury palace", 60, 4.44, 7, "Handcraft Chinese style art luxury palace"),
        ("Key Holder", "Golden", 30, 4.92, 54, "Attractive DesignMetallic materialFour key hooks"),
    ],
}

PRODUCTS = []
for category, items in CATEGORIES.items():
    for title, brand, price, rating, stock, description in items:
        PRODUCTS.append({
            "id": len(PRODUCTS) + 1, "title": title, "description": description, "category": category,
            "price": price, "rating": rating, "stock": stock, "brand": brand,
        })

USERS = {
    "emilys": {"id": 1, "username": "emilys", "password": "emilyspass", "email": "emily.johnson@x.dummyjson.com",
               "firstName": "Emily", "lastName": "Johnson", "gender": "female"},
    "michaelw": {"id": 2, "username": "michaelw", "password": "michaelwpass",
                 "email": "michael.williams@x.dummyjson.com", "firstName": "Michael", "lastName": "Williams",
                 "gender": "male"},
}

ACCESS_SECONDS = 60
REFRESH_SECONDS = 30 * 60
LOCK = threading.Lock()
ACCESS = {}   # token -> (username, expiry)
REFRESH = {}  # token -> (username, expiry)


def public_user(user):
    return {key: value for key, value in user.items() if key != "password"}


def issue(username, minutes):
    lifetime = ACCESS_SECONDS if minutes is None else max(1, int(float(minutes) * 60))
    access, refresh = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    now = time.time()
    with LOCK:
        ACCESS[access] = (username, now + lifetime)
        REFRESH[refresh] = (username, now + REFRESH_SECONDS)
    return {"accessToken": access, "refreshToken": refresh, "expiresIn": lifetime}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ErrandCatalog/1.0"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        sys.stderr.write("%s %s\n" % (self.command, self.path))

    def send_json(self, status, payload, cache=None):
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache or "no-store")
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length == 0:
            return {}
        try:
            value = json.loads(self.rfile.read(length))
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def page(self, items, query):
        try:
            limit = int(query.get("limit", ["10"])[0])
            skip = int(query.get("skip", ["0"])[0])
        except ValueError:
            return self.send_json(400, {"message": "limit and skip must be whole numbers"})
        limit = max(0, min(limit, 100))
        skip = max(0, skip)
        self.send_json(200, {"products": items[skip:skip + limit], "total": len(items), "skip": skip,
                             "limit": limit}, cache="max-age=60")

    def product(self, text):
        found = [p for p in PRODUCTS if str(p["id"]) == text]
        if not found:
            self.send_json(404, {"message": "Product with id '%s' not found" % text})
            return None
        return found[0]

    def do_GET(self):
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        path = parts.path.rstrip("/")
        if path == "/products":
            return self.page(PRODUCTS, query)
        if path == "/products/search":
            text = query.get("q", [""])[0].lower()
            hits = [p for p in PRODUCTS if text in p["title"].lower() or text in p["description"].lower()]
            return self.page(hits, query)
        if path.startswith("/products/"):
            found = self.product(path[len("/products/"):])
            if found is not None:
                self.send_json(200, found, cache="max-age=60")
            return None
        if path == "/auth/me":
            header = self.headers.get("Authorization", "")
            token = header[len("Bearer "):] if header.startswith("Bearer ") else ""
            with LOCK:
                entry = ACCESS.get(token)
            if entry is None or entry[1] < time.time():
                return self.send_json(401, {"message": "Invalid or expired access token"})
            return self.send_json(200, public_user(USERS[entry[0]]))
        self.send_json(404, {"message": "No route for GET %s" % path})

    def do_POST(self):
        path = urlsplit(self.path).path.rstrip("/")
        body = self.body()
        if body is None:
            return self.send_json(400, {"message": "The body must be a JSON object"})
        if path == "/products/add":
            if not isinstance(body.get("title"), str) or not body["title"]:
                return self.send_json(400, {"message": "A product needs a title"})
            return self.send_json(201, dict(body, id=len(PRODUCTS) + 1))
        if path == "/auth/login":
            user = USERS.get(body.get("username"))
            if user is None or user["password"] != body.get("password"):
                return self.send_json(400, {"message": "Invalid credentials"})
            return self.send_json(200, dict(public_user(user), **issue(user["username"], body.get("expiresInMins"))))
        if path == "/auth/refresh":
            with LOCK:
                entry = REFRESH.pop(body.get("refreshToken") or "", None)
            if entry is None or entry[1] < time.time():
                return self.send_json(401, {"message": "Invalid or expired refresh token"})
            return self.send_json(200, issue(entry[0], body.get("expiresInMins")))
        self.send_json(404, {"message": "No route for POST %s" % path})

    def do_PUT(self):
        path = urlsplit(self.path).path.rstrip("/")
        body = self.body()
        if body is None:
            return self.send_json(400, {"message": "The body must be a JSON object"})
        if path.startswith("/products/"):
            found = self.product(path[len("/products/"):])
            if found is not None:
                self.send_json(200, dict(found, **{k: v for k, v in body.items() if k != "id"}))
            return None
        self.send_json(404, {"message": "No route for PUT %s" % path})

    def do_DELETE(self):
        path = urlsplit(self.path).path.rstrip("/")
        if path.startswith("/products/"):
            found = self.product(path[len("/products/"):])
            if found is not None:
                self.send_json(200, dict(found, isDeleted=True))
            return None
        self.send_json(404, {"message": "No route for DELETE %s" % path})


def main():
    parser = argparse.ArgumentParser(description="The Errand example's demo catalog API.")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1; 0 picks a free one")
    arguments = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True
    print("URL http://127.0.0.1:%d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
