declare module '@mrmgomes/boleto-utils' {
  const boletoUtils: { validarBoleto(code: string): { sucesso: boolean; valor?: number; mensagem?: string; vencimento?: Date } };
  export default boletoUtils;
}
