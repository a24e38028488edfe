"""A phone at the board's entry, as the tests drive it over HTTP (no browser): it keeps its
cookies, reads the forms of the last page it got, and sends them as a browser would — or as
an attacker would, leaving out or changing what it likes."""

import http.client
import re
from urllib.parse import quote, urlencode

HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')


class Phone:
    def __init__(self, board, host: str | None = None):
        self.board, self.cookies = board, {}
        self.host = host or f"127.0.0.1:{board.port}"
        self.page = ""

    def request(self, method, path, form=None, headers=None):
        """(status, {header: [values]}, body) of one request; its cookies kept."""
        conn = http.client.HTTPConnection("127.0.0.1", self.board.port, timeout=30)
        sent = {"Host": self.host}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        sent.update(headers or {})
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            got = {}
            for k, v in response.getheaders():
                got.setdefault(k.lower(), []).append(v)
            text = response.read().decode("utf-8")
        finally:
            conn.close()
        for cookie in got.get("set-cookie", []):
            name, value = cookie.split(";", 1)[0].split("=", 1)
            if 'Max-Age=0' in cookie or value in ('""', ""):
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        if method == "GET" and response.status == 200:
            self.page = text
        return response.status, got, text

    def get(self, path):
        return self.request("GET", path)

    def sign_in(self, name, secret, **extra):
        """The sign-in form filled in and sent: (status, body)."""
        self.get("/entry")
        form = {"csrf": self.field("csrf"), "name": name, "secret": secret, **extra}
        status, _headers, body = self.request("POST", "/entry/signin", form)
        return status, body

    def field(self, name, form_class=None):
        """A hidden field of the last page (of the form with that class, when given)."""
        text = self.page
        if form_class is not None:
            text = text[text.index(f'class="{form_class}"'):]
        found = re.search(rf'name="{name}" value="([^"]*)"', text)
        return found.group(1) if found else None

    def open_table(self, table="friday", line=""):
        status, _h, body = self.get(f"/entry/table?t={quote(table)}" + (f"&line={quote(line)}" if line else ""))
        assert status == 200, body
        return body

    def seen(self):
        number, seq = re.search(r'data-seen="(\d+)-(\d+)"', self.page).groups()
        return int(number), int(seq)

    def send(self, line, table="friday", **change):
        """The text field's form of the page last opened, with `line`: (status, the answer shown)."""
        fields = dict(HIDDEN.findall(self.page[self.page.index('class="line"'):].split("</form>")[0]))
        fields.update(line=line)
        fields.update(change)
        fields = {k: v for k, v in fields.items() if v is not None}
        return self.post(table, fields)

    def post(self, table, fields, headers=None):
        status, _h, body = self.request("POST", f"/entry/table?t={quote(table)}", fields, headers)
        if status != 303:
            return status, body
        self.open_table(table)
        return status, said(self.page)


def said(page: str) -> list:
    """The answer a page shows to the last form (its lines)."""
    found = re.search(r'<p id="said"[^>]*>(.*?)</p>', page, re.S)
    if found is None:
        return []
    return [unescape(x) for x in re.findall(r"<span>(.*?)</span>", found.group(1), re.S)]


def unescape(text: str) -> str:
    import html

    return html.unescape(re.sub(r"<[^>]+>", "", text))
