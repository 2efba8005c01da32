import SignalK

/// The files the web server serves at `/`, embedded in the binary (no network on a boat). Until the instrument panel
/// lands this is one page: the live Signal K values as a table, from the stream.
enum PanelFiles {
    static var all: [String: SignalKServer.StaticFile] {
        ["/index.html": SignalKServer.StaticFile(contentType: "text/html; charset=utf-8", bytes: Array(index.utf8))]
    }

    static let index = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Telltale</title>
        <style>
        body{font:16px system-ui,sans-serif;margin:1em;background:#fff;color:#111}
        table{border-collapse:collapse;width:100%}td{padding:.3em;border-bottom:1px solid #ddd}
        td.v{font:bold 1.3em ui-monospace,monospace;text-align:right}#state{color:#a00}
        </style></head><body>
        <h1>Telltale</h1><p id="state">connecting…</p>
        <p>Signal K: <a href="/signalk">/signalk</a>, <a href="/signalk/v1/api/">/signalk/v1/api/</a>,
        stream at <code>/signalk/v1/stream</code>.</p>
        <table id="values"></table>
        <script>
        const rows = {};
        function show(path, source, value) {
          const key = path + " " + source;
          if (value === null) { if (rows[key]) { rows[key].remove(); delete rows[key]; } return; }
          let row = rows[key];
          if (!row) {
            row = document.createElement("tr");
            row.innerHTML = "<td></td><td></td><td class=v></td>";
            row.cells[0].textContent = path; row.cells[1].textContent = source;
            rows[key] = row;
            const table = document.getElementById("values");
            const after = [...table.rows].find(r => r.cells[0].textContent + " " + r.cells[1].textContent > key);
            table.insertBefore(row, after || null);
          }
          row.cells[2].textContent = typeof value === "number" ? value.toFixed(4) : JSON.stringify(value);
        }
        function connect() {
          const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/signalk/v1/stream?subscribe=self");
          ws.onopen = () => { document.getElementById("state").textContent = ""; };
          ws.onmessage = (event) => {
            const message = JSON.parse(event.data);
            for (const update of message.updates || [])
              for (const item of update.values || []) show(item.path, update["$source"], item.value);
          };
          ws.onclose = () => {
            document.getElementById("state").textContent = "disconnected: reconnecting…";
            for (const key in rows) { rows[key].remove(); delete rows[key]; }
            setTimeout(connect, 2000);
          };
        }
        connect();
        </script></body></html>
        """
}
