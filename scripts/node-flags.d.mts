export declare const SERVER_NODE_FLAGS: string[];
export declare function withServerFlags(nodeOptions?: string): string;
