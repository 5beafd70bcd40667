// Talking to the server: the JSON API of kamivision/web/app.py, with the token (when the
// server has one) on every request.

const token = new URLSearchParams(location.search).get("token") || "";

export function withToken(path) {
  if (!token) return path;
  return path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token);
}

// The query the page's own address keeps (the token), for history entries.
export function tokenQuery() { return token ? "?" + new URLSearchParams({ token }) : ""; }

export async function api(path, options = {}) {
  const headers = Object.assign({ "X-Kamivision": "1" }, options.headers || {});
  if (token) headers["X-Kamivision-Token"] = token;
  let response;
  try {
    response = await fetch(path, Object.assign({}, options, { headers }));
  } catch (error) {
    throw new Error("the server cannot be reached: is kamivision serve still running?");
  }
  let body = null;
  try { body = await response.json(); } catch (error) { body = null; }
  if (!response.ok) {
    const message = body && body.error ? body.error : `the server answered ${response.status}`;
    const failure = new Error(message);
    failure.status = response.status;
    failure.body = body;
    throw failure;
  }
  return body;
}

export function post(path, body) {
  return api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
}
