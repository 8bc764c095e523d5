/** The library's version, as its User-Agent names it. */
export const VERSION = "2.0.0";
