// What @nestjs/common's console logger did at import before its patch (ADR 044 addendum).
new Intl.DateTimeFormat(undefined, { year: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', day: '2-digit', month: '2-digit' });
