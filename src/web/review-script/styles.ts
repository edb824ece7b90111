// The toolbar's look, applied as constructed style sheets: a staging site's CSP without
// 'unsafe-inline' for styles still lets them through (CSSOM, not inline <style>).
export const STYLES = `
:host{all:initial;position:fixed;inset:0;z-index:2147483646;pointer-events:none;font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;color:#f8fafc}
.layer{position:fixed;inset:0;pointer-events:none;overflow:hidden}
.pin{position:fixed;transform:translate(-50%,-50%);width:28px;height:28px;border-radius:50%;border:2px solid #fff;background:#e11d48;color:#fff;font:700 12px system-ui,sans-serif;pointer-events:auto;cursor:pointer;box-shadow:0 2px 6px rgba(0,0,0,.45);padding:0}
.pin.done{background:#16a34a}
.pin.hl{outline:4px solid #facc15;outline-offset:2px}
.bar{position:fixed;right:12px;bottom:12px;left:auto;max-width:min(420px,calc(100vw - 24px));box-sizing:border-box;pointer-events:auto;background:#0f172a;border:1px solid #334155;border-radius:14px;padding:10px 12px;box-shadow:0 8px 24px rgba(0,0,0,.4)}
.bar p{margin:0 0 6px;overflow-wrap:anywhere}
.title{padding-right:44px}.title .state{color:#94a3b8}
.fold{position:absolute;top:4px;right:4px;padding:0;border:0;background:none;font-size:20px}
.hint:empty,[hidden]{display:none!important}
.handle{position:fixed;right:12px;bottom:12px;pointer-events:auto;border-radius:22px;background:#0f172a;border-color:#334155;box-shadow:0 4px 12px rgba(0,0,0,.4)}
.btns{display:flex;flex-wrap:wrap;gap:8px}
button{font:600 14px system-ui,sans-serif;min-height:44px;min-width:44px;padding:0 14px;border-radius:10px;border:1px solid #475569;background:#1e293b;color:#f8fafc;cursor:pointer}
button[aria-pressed=true],button[type=submit]{background:#e11d48;border-color:#e11d48}
button:focus-visible,textarea:focus-visible{outline:3px solid #facc15;outline-offset:2px}
.gone{margin-top:8px;max-height:40vh;overflow:auto;border-top:1px solid #334155;padding-top:6px}
.gone ol{margin:0;padding-left:18px}
.gone img{display:block;max-width:100%;margin:4px 0;border-radius:6px}
.ask{position:fixed;width:280px;max-width:calc(100vw - 16px);box-sizing:border-box;pointer-events:auto;background:#0f172a;border:1px solid #334155;border-radius:12px;padding:10px;box-shadow:0 8px 24px rgba(0,0,0,.4)}
.ask label{display:block;margin-bottom:8px}
.ask textarea{display:block;box-sizing:border-box;width:100%;margin-top:4px;font:14px system-ui,sans-serif;border-radius:8px;border:1px solid #475569;background:#020617;color:#f8fafc;padding:6px}
@media (max-width:480px){.bar{left:8px;right:8px;bottom:8px;max-width:none}.handle{right:8px;bottom:8px}.ask{left:8px!important;right:8px}}
`;
/** While commenting, the page shows a crosshair everywhere. */
export const PAGE_STYLES = 'html.wc-review-commenting,html.wc-review-commenting *{cursor:crosshair!important}';
