/** Where `router:install` writes a line of output (stdout or stderr in the CLI). */
export type Log = (line: string) => void;
